package readback

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	mergeMessage  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merge pull request #([0-9]{1,9}) from `) })
	squashMessage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(#([0-9]{1,9})\)$`) })
)

// Guesses is the pull request a merge commit's first line names:
// GitHub's "Merge pull request #N from …" or a squash's "Title (#N)".
// It is a guess, to be checked against GitHub (Target.Guesses).
func Guesses(message string) []int {
	first, _, _ := strings.Cut(message, "\n")
	first = strings.TrimSpace(first)
	for _, re := range []*regexp.Regexp{mergeMessage(), squashMessage()} {
		if m := re.FindStringSubmatch(first); m != nil {
			n, err := strconv.Atoi(m[1])
			if err == nil && n > 0 {
				return []int{n}
			}
		}
	}
	return nil
}
