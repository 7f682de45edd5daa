package coverage

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrMergeTreeOutput is the error of output ParseMergeTree cannot read.
var ErrMergeTreeOutput = errors.New("unreadable git merge-tree output")

// MergeTree is what `git merge-tree --write-tree -z --name-only` printed:
// the tree it wrote, the conflicted paths and the conflicts among its
// informational messages ("Auto-merging" and other non-CONFLICT messages
// are dropped).
type MergeTree struct {
	Tree       string
	Conflicted []string
	Conflicts  []Conflict
}

// ParseMergeTree reads the output of `git merge-tree --write-tree -z
// --name-only` (git ≥ 2.38): the tree's name and NUL; when the merge
// conflicted (clean false), the conflicted paths each followed by NUL, an
// empty field, then messages, each "<count> NUL <path> NUL … <type> NUL
// <message> NUL". A clean merge prints the tree alone.
func ParseMergeTree(out []byte, clean bool) (MergeTree, error) {
	fields := bytes.Split(out, []byte{0})
	if len(fields) < 2 || len(fields[len(fields)-1]) != 0 {
		return MergeTree{}, fmt.Errorf("%w: not NUL-terminated fields", ErrMergeTreeOutput)
	}
	fields = fields[:len(fields)-1]
	mt := MergeTree{Tree: string(fields[0])}
	if !ValidSHA(mt.Tree) {
		return MergeTree{}, fmt.Errorf("%w: tree %q", ErrMergeTreeOutput, mt.Tree)
	}
	rest := fields[1:]
	if clean {
		if len(rest) != 0 {
			return MergeTree{}, fmt.Errorf("%w: %d fields after a clean merge's tree", ErrMergeTreeOutput, len(rest))
		}
		return mt, nil
	}
	for len(rest) > 0 && len(rest[0]) > 0 {
		mt.Conflicted = append(mt.Conflicted, string(rest[0]))
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return MergeTree{}, fmt.Errorf("%w: no end to the conflicted paths", ErrMergeTreeOutput)
	}
	conflicts, err := parseMessages(rest[1:])
	if err != nil {
		return MergeTree{}, err
	}
	mt.Conflicts = conflicts
	if len(mt.Conflicts) == 0 {
		if len(mt.Conflicted) == 0 {
			return MergeTree{}, fmt.Errorf("%w: a conflicted merge with no conflict", ErrMergeTreeOutput)
		}
		// Conflicted paths without a CONFLICT message: nothing says git
		// wrote them with markers, so they count as a conflict it could
		// not write (Conflict.Content is false).
		mt.Conflicts = []Conflict{{Type: "CONFLICT (unreported)", Paths: mt.Conflicted, Message: "git listed conflicted paths without a conflict message"}}
	}
	return mt, nil
}

// parseMessages reads the informational messages and keeps the conflicts.
func parseMessages(f [][]byte) ([]Conflict, error) {
	var out []Conflict
	for len(f) > 0 {
		n, err := strconv.Atoi(string(f[0]))
		if err != nil || n < 1 || n > len(f)-3 {
			return nil, fmt.Errorf("%w: message path count %q", ErrMergeTreeOutput, f[0])
		}
		c := Conflict{Type: string(f[n+1]), Message: strings.TrimSpace(string(f[n+2]))}
		for _, p := range f[1 : n+1] {
			c.Paths = append(c.Paths, string(p))
		}
		f = f[n+3:]
		if strings.HasPrefix(c.Type, "CONFLICT") {
			out = append(out, c)
		}
	}
	return out, nil
}
