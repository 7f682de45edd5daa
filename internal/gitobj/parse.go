package gitobj

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// SymlinkMode is a symbolic link's git file mode.
const SymlinkMode = "120000"

// Entry is one tree entry as git ls-tree prints it.
type Entry struct {
	// Mode is the octal file mode ("100644", "100755", "120000",
	// "040000", "160000").
	Mode string
	// Type is "blob", "tree" or "commit" (a submodule).
	Type string
	// Object is the entry's object ID.
	Object string
}

// ParseTree reads the output of git ls-tree -z: entries
// "<mode> SP <type> SP <object> TAB <path>" ending in NUL, by path.
func ParseTree(out []byte) (map[string]Entry, error) {
	entries := map[string]Entry{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || path == "" {
			return nil, fmt.Errorf("unexpected ls-tree entry %q", rec)
		}
		entries[path] = Entry{Mode: f[0], Type: f[1], Object: f[2]}
	}
	return entries, nil
}

// ParseBatch reads the output of git cat-file --batch: for each object
// "<object> SP <type> SP <size> LF <content> LF", by object ID. An object
// git reports missing is an error.
func ParseBatch(out []byte) (map[string][]byte, error) {
	objs := map[string][]byte{}
	for len(out) > 0 {
		header, rest, ok := bytes.Cut(out, []byte{'\n'})
		if !ok {
			return nil, fmt.Errorf("cat-file: unterminated header %q", header)
		}
		f := strings.Fields(string(header))
		if len(f) == 2 && f[1] == "missing" {
			return nil, fmt.Errorf("cat-file: object %s is missing", f[0])
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("cat-file: unexpected header %q", header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size < 0 || size >= len(rest) || rest[size] != '\n' {
			return nil, fmt.Errorf("cat-file: object %s: size %q does not match its content", f[0], f[2])
		}
		objs[f[0]] = rest[:size:size]
		out = rest[size+1:]
	}
	return objs, nil
}
