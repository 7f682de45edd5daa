// Package negcontrol runs a negative control: back up the protected file,
// break the protection, watch the test fail, restore the protection (and
// verify the file byte for byte), watch the test pass, and print a
// paste-ready transcript. It is the one protocol package that runs
// processes and touches files (the import rules internal/archtest checks).
//
// The behaviour, messages and exit codes follow aepkit's negcontrol
// (docs/negative-controls.md lists the differences); each command runs in
// its own process group, and a timeout or an interrupt kills the whole
// group.
package negcontrol

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// BackupPrefix starts the name of the temporary directory holding the
// backup of Spec.File.
const BackupPrefix = "aepgate-negcontrol-"

// Spec describes one negative control.
type Spec struct {
	// Test is the shell command expected to fail without the protection
	// and to pass with it. Required.
	Test string
	// Break is the shell command that removes the protection.
	Break string
	// Restore is the shell command that puts the protection back.
	Restore string
	// File, when set, is backed up before the break and copied back from
	// the backup unless it is byte-identical after the restore. A relative
	// File is resolved against Dir.
	File string
	// Expect, when set, is an RE2 pattern, applied in multi-line mode, that
	// the failing test's output must contain.
	Expect string
	// Timeout limits each of the four commands separately; zero means no
	// limit.
	Timeout time.Duration
	// Dir is the working directory of the commands; empty means the
	// current directory.
	Dir string
	// Env is the commands' environment; nil means the current process's
	// without the credentials cmdenv.Scrub removes (the Action's token, the
	// runner's ACTIONS_* and the GitHub CLI's GH_* variables). A non-nil Env
	// is used as given.
	Env []string
	// BackupDir is where the backup directory is created; empty means the
	// system's temporary directory.
	BackupDir string
	// Confine, when set, is the directory Dir and File must stay inside
	// once their symlinks are resolved (an isolated copy of a tree): a
	// File or Dir that leads outside it, through a symlink to an absolute
	// path or a "..", is refused before anything runs, and File is checked
	// again before it is copied back from the backup.
	Confine string
}

// UsageError is a Spec that cannot run. Nothing was run and no file was
// touched; the CLI exits 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Validate checks a Spec in the order aepkit does and returns the first
// problem as a *UsageError, or nil.
func Validate(s Spec) error {
	if s.Test == "" {
		return &UsageError{"--test-cmd is required: the command expected to fail without the protection."}
	}
	if _, err := compileExpect(s.Expect); err != nil {
		return &UsageError{fmt.Sprintf("--expect is not a valid regular expression: %v", err)}
	}
	switch {
	case s.Break == "" && s.Restore == "":
		return &UsageError{"pass --break-cmd, or --restore-cmd for a break you apply yourself."}
	case s.File == "" && s.Restore == "":
		return &UsageError{"without --file, --restore-cmd is required (nothing to copy back)."}
	case s.File != "" && s.Break == "":
		return &UsageError{"--file needs --break-cmd (the backup must be taken before the break). " +
			"A file broken by hand before the run would be backed up broken; apply the break with --break-cmd, " +
			"or drop --file and pass --restore-cmd."}
	case s.Timeout < 0:
		return &UsageError{"--timeout must be more than 0 seconds."}
	}
	if s.File != "" {
		if fi, err := os.Stat(s.path()); err != nil || !fi.Mode().IsRegular() {
			return &UsageError{fmt.Sprintf("%s is not an existing file.", s.File)}
		}
	}
	return s.confined()
}

// confined checks that Dir and File resolve inside Confine (when set).
func (s Spec) confined() error {
	if s.Confine == "" {
		return nil
	}
	dir := s.Dir
	if dir == "" {
		dir = "."
	}
	if err := inside(s.Confine, dir); err != nil {
		return &UsageError{fmt.Sprintf("the working directory %v; refused, so nothing outside the copy is changed.", err)}
	}
	if s.File != "" {
		if err := inside(s.Confine, s.path()); err != nil {
			return &UsageError{fmt.Sprintf("%q %v; refused, so nothing outside the copy is changed.", s.File, err)}
		}
	}
	return nil
}

// insideForWrite is inside for a path about to be written: when nothing is
// at path (the break deleted it), its nearest existing ancestor must be
// inside root. A dangling symlink cannot be resolved, so it is refused.
func insideForWrite(root, path string) error {
	for p := path; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil || !errors.Is(err, fs.ErrNotExist) || p == filepath.Dir(p) {
			return inside(root, p)
		}
	}
}

// inside reports, as an error, a path that does not resolve (symlinks
// followed) to root or a path below it.
func inside(root, path string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("cannot be checked: %w", err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("cannot be resolved: %w", err)
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || !(rel == "." || filepath.IsLocal(rel)) {
		return fmt.Errorf("leads outside %q (to %q)", root, real)
	}
	return nil
}

// compileExpect compiles an --expect pattern in multi-line mode; an empty
// pattern gives nil.
func compileExpect(expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, fmt.Errorf("%w (RE2 syntax: no lookarounds or back-references)", err)
	}
	return re, nil
}

// path is File resolved against Dir.
func (s Spec) path() string {
	if s.File == "" || filepath.IsAbs(s.File) || s.Dir == "" {
		return s.File
	}
	return filepath.Join(s.Dir, s.File)
}
