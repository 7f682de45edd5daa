// Package gitblame reads who introduced each line of a file at a commit,
// from git blame in a local checkout (the Action's workspace).
package gitblame

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/cmdenv"
)

// Line is the commit that introduced one line and its author's e-mail.
type Line struct {
	Commit, AuthorMail string
}

// Blame runs git blame --porcelain on file at rev in the repository at dir
// and returns each 1-based line's commit and author e-mail.
func Blame(ctx context.Context, dir, rev, file string) (map[int]Line, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "blame", "--porcelain", rev, "--", file)
	cmd.Env = cmdenv.Scrub(os.Environ())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git blame %s at %s: %w: %s", file, rev, err, strings.TrimSpace(stderr.String()))
	}
	return Parse(out)
}

var headerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{40,64}) [0-9]+ ([0-9]+)`) })

// Parse reads git blame --porcelain output.
func Parse(out []byte) (map[int]Line, error) {
	lines := map[int]Line{}
	mails := map[string]string{}
	var pending []int // final lines of the current commit block
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		t := sc.Text()
		if strings.HasPrefix(t, "\t") {
			continue
		}
		if m := headerRE().FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[2])
			cur = m[1]
			lines[n] = Line{Commit: cur, AuthorMail: mails[cur]}
			pending = append(pending[:0], n)
			continue
		}
		if mail, ok := strings.CutPrefix(t, "author-mail "); ok && cur != "" {
			mails[cur] = strings.Trim(mail, "<>")
			for _, n := range pending {
				lines[n] = Line{Commit: cur, AuthorMail: mails[cur]}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read git blame output: %w", err)
	}
	return lines, nil
}

var noreplyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[0-9]+\+)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))@users\.noreply\.github\.com$`)
})

// NoreplyLogin returns the GitHub login of a GitHub noreply address
// ("123+octo@users.noreply.github.com"), or "".
func NoreplyLogin(mail string) string {
	if m := noreplyRE().FindStringSubmatch(strings.ToLower(mail)); m != nil {
		return m[1]
	}
	return ""
}
