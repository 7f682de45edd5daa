// Package rundir loads a run directory from disk into a rundoc.Run: the
// three documents and the annex names, with a size cap and a refusal of
// binary files. It is the non-pure edge shared by the CLI and the Action.
package rundir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// MaxFileSize is the largest run document aepgate reads (50 MB, the cap
// of internal/readfile's RunDocument).
const MaxFileSize = 50 << 20

// MissingError reports that required documents (the guide and/or the log)
// are not regular files in Dir. Load returns it together with a Run holding
// whatever else it could read.
type MissingError struct {
	Dir   string
	Names []string
}

// Error lists the missing documents.
func (e *MissingError) Error() string {
	return fmt.Sprintf("%s is missing %s", readfile.Quote(e.Dir), strings.Join(e.Names, ", "))
}

// Has reports whether name is among the missing documents.
func (e *MissingError) Has(name string) bool {
	for _, n := range e.Names {
		if n == name {
			return true
		}
	}
	return false
}

// InputError reports a document aepgate refuses to read: too large, not
// UTF-8 text, unreadable, or an annexes path that is not a folder.
type InputError struct {
	Path   string
	Reason string
	Err    error
}

// Error names the path and why it was refused.
func (e *InputError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", readfile.Quote(e.Path), e.Reason, e.Err)
	}
	return fmt.Sprintf("%s: %s", readfile.Quote(e.Path), e.Reason)
}

// Unwrap returns the underlying I/O error, if any.
func (e *InputError) Unwrap() error { return e.Err }

// Load reads the run in dir. A missing guide or log yields a *MissingError
// and a non-nil Run with the documents that do exist (status needs only the
// log). A missing plan or annexes folder is not an error. Any other problem
// is an *InputError and a nil Run, the first in document order (guide, log,
// plan). Each document is read and parsed on a goroutine of its own, so a
// large log is parsed while the guide is still being read and parsed.
func Load(dir string) (*rundoc.Run, error) { return load(dir, rundoc.ParseGuide) }

// LoadForStatus is Load for status and the board, which read only the
// guide's phase titles: the guide is read and refused as Load does, but
// parsed with rundoc.ParseGuidePhases, so its Sections and Reports are nil.
func LoadForStatus(dir string) (*rundoc.Run, error) { return load(dir, rundoc.ParseGuidePhases) }

// load is Load with the guide parsed by parseGuide.
func load(dir string, parseGuide func(file, text string) *rundoc.Guide) (*rundoc.Run, error) {
	docs := []struct {
		name  string
		parse func(run *rundoc.Run, text string)
	}{
		{rundoc.GuideFile, func(run *rundoc.Run, text string) { run.Guide = parseGuide(rundoc.GuideFile, text) }},
		{rundoc.LogFile, func(run *rundoc.Run, text string) { run.Log = rundoc.ParseLog(rundoc.LogFile, text) }},
		{rundoc.PlanFile, func(run *rundoc.Run, text string) { run.Plan = rundoc.ParsePlan(rundoc.PlanFile, text) }},
	}
	run := &rundoc.Run{}
	found := make([]bool, len(docs))
	errs := make([]error, len(docs))
	var wg sync.WaitGroup
	for i, d := range docs {
		wg.Go(func() {
			text, ok, err := readDoc(filepath.Join(dir, d.name))
			found[i], errs[i] = ok, err
			if ok && err == nil {
				d.parse(run, text) // each document sets its own field
			}
		})
	}
	wg.Wait()
	var missing []string
	for i, d := range docs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if !found[i] && d.name != rundoc.PlanFile {
			missing = append(missing, d.name)
		}
	}
	annexes, err := annexNames(filepath.Join(dir, rundoc.AnnexDir))
	if err != nil {
		return nil, err
	}
	run.Annexes = annexes
	if len(missing) > 0 {
		return run, &MissingError{Dir: dir, Names: missing}
	}
	return run, nil
}

// readDoc reads a document. ok is false when path is not a regular file
// (absent, or a folder), as aepkit's is_file() test has it. The read goes
// through internal/readfile, which judges the opened file (a named pipe
// swapped in after the Stat is refused, not waited on) and caps it at 50 MB
// before reading; a regular file needs no cancelling, so it runs under a
// background context.
func readDoc(path string) (b string, ok bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || isNotDir(err) {
			return "", false, nil
		}
		return "", false, &InputError{Path: path, Reason: "cannot read", Err: err}
	}
	if !st.Mode().IsRegular() {
		return "", false, nil
	}
	b, err = readfile.Text(context.Background(), path, readfile.RunDocument)
	if errors.Is(err, readfile.ErrTooLarge) {
		return "", false, &InputError{Path: path, Reason: fmt.Sprintf("file is larger than the %d MB limit", MaxFileSize>>20)}
	}
	if err != nil {
		var re *readfile.Error
		if errors.As(err, &re) {
			err = re.Err
		}
		return "", false, &InputError{Path: path, Reason: "cannot read", Err: err}
	}
	if err := checkText(path, b); err != nil {
		return "", false, err
	}
	return b, true, nil
}

// isNotDir reports an error from a path whose parent is a file.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// checkText refuses binary input: NUL bytes or invalid UTF-8.
func checkText(path string, b string) error {
	if i := strings.IndexByte(b, 0); i >= 0 {
		return &InputError{Path: path, Reason: fmt.Sprintf("binary file (NUL byte on line %d); run documents are UTF-8 Markdown", lineAt(b, i))}
	}
	if !utf8.ValidString(b) {
		i := firstInvalid(b)
		return &InputError{Path: path, Reason: fmt.Sprintf("not valid UTF-8 (line %d); run documents are UTF-8 Markdown", lineAt(b, i))}
	}
	return nil
}

func firstInvalid(b string) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRuneInString(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

func lineAt(b string, i int) int { return strings.Count(b[:i], "\n") + 1 }

// annexNames lists the regular files in the annexes folder (following
// symlinks, as aepkit's is_file() does). A missing folder has none; a path
// that exists but is not a folder is an error.
func annexNames(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err != nil && isNotDir(err)):
		return nil, nil
	case err != nil:
		return nil, &InputError{Path: dir, Reason: "cannot read", Err: err}
	case !st.IsDir():
		return nil, &InputError{Path: dir, Reason: "exists but is not a folder; annexes/ must be a folder of remediation orders"}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &InputError{Path: dir, Reason: "cannot read", Err: err}
	}
	var names []string
	for _, e := range entries {
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		if err == nil && st.Mode().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
