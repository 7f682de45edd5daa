package negcontrol

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/cmdenv"
)

// interruptedRestoreLimit bounds the restore command after an interrupt
// when no shorter timeout is set, so a second hang cannot keep the user
// waiting forever.
const interruptedRestoreLimit = time.Minute

// Result is the outcome of one negative control.
type Result struct {
	// Name is the declared control's name (empty for a CLI run).
	Name string `json:"name,omitempty"`
	// OK is true only when the control was verified.
	OK bool `json:"ok"`
	// Verdict is the "OK: …" or "FAIL: …" line.
	Verdict string `json:"verdict"`
	// Warning is the crash-signature "WARNING: …" line, if any.
	Warning string `json:"warning,omitempty"`
	// Transcript is the paste-ready evidence for a compliance log's
	// **Verify output:** fence: the commands and their output, a blank
	// line, the verdict and the warning. It ends with a newline.
	Transcript string `json:"transcript"`
	// Notices are the lines meant for stderr: a break that exited non-zero,
	// a backup kept after a failed restore.
	Notices []string `json:"notices,omitempty"`
	// BackupKept is the backup's path when it was kept (restore failed).
	BackupKept string `json:"backup_kept,omitempty"`
	// Interrupted is set when ctx was done before the control finished.
	Interrupted bool `json:"interrupted,omitempty"`
	// Seconds is the run's wall time.
	Seconds float64 `json:"seconds"`
	// Err is set when the Spec could not run at all (a *UsageError, or a
	// backup that could not be taken); nothing was changed.
	Err error `json:"-"`
}

// ExitCode is the CLI exit code for r: 0 verified, 1 failed, 2 when the
// control could not run, 130 when it was interrupted (after restoring).
func (r Result) ExitCode() int {
	switch {
	case r.Err != nil:
		return 2
	case r.OK:
		return 0
	case r.Interrupted:
		return ExitInterrupted
	}
	return 1
}

// Run validates s and runs the control: backup → break → test (expect
// failure) → restore → test (expect success). The restore always runs,
// even when ctx is cancelled mid-run (SIGINT/SIGTERM): the command in
// flight is killed with its process group, the protection is put back, and
// the remaining steps are skipped.
func Run(ctx context.Context, s Spec) Result { return run(ctx, s, killGroup) }

// run is Run ending commands with kill.
func run(ctx context.Context, s Spec, kill killer) Result {
	start := time.Now()
	if err := Validate(s); err != nil {
		return Result{Err: err}
	}
	re, _ := compileExpect(s.Expect)
	if s.Env == nil {
		s.Env = cmdenv.Scrub(os.Environ())
	}
	r := &runner{ctx: ctx, spec: s, kill: kill}
	res := r.run(re)
	res.Seconds = time.Since(start).Seconds()
	return res
}

// runner accumulates the transcript of one run.
type runner struct {
	ctx     context.Context
	spec    Spec
	kill    killer
	lines   []string
	notices []string
	backup  string
	orig    fingerprint
}

func (r *runner) line(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

func (r *runner) stopped() bool { return r.ctx.Err() != nil }

// exec runs one command, adding "$ <header>" and its output to the
// transcript.
func (r *runner) exec(ctx context.Context, header, command string, timeout time.Duration) outcome {
	r.line("$ %s", header)
	o := runShell(ctx, command, r.spec.Dir, r.spec.Env, timeout, r.kill)
	r.lines = append(r.lines, trimOutput(o.output))
	return o
}

func (r *runner) run(re *regexp.Regexp) Result {
	s := r.spec
	if s.File != "" {
		if err := r.takeBackup(); err != nil {
			return Result{Err: err}
		}
	}
	if s.Break != "" && !r.stopped() {
		if o := r.exec(r.ctx, s.Break, s.Break, s.Timeout); o.code != 0 && !o.interrupted {
			r.notices = append(r.notices, fmt.Sprintf("warning: break command exited %d. Continuing, but check it did what you meant.", o.code))
		}
	}
	var broken, healed outcome
	if !r.stopped() {
		header := s.Test + "   # expect FAILURE"
		if s.Expect != "" {
			header += " matching /" + s.Expect + "/"
		}
		broken = r.exec(r.ctx, header, s.Test, s.Timeout)
		r.line("(exit %d)", broken.code)
	}
	restored := r.restore()
	if !r.stopped() {
		healed = r.exec(r.ctx, s.Test+"   # expect SUCCESS", s.Test, s.Timeout)
		r.line("(exit %d)", healed.code)
	}
	res := Result{Interrupted: r.stopped(), Notices: r.notices}
	res.Verdict, res.Warning = verdict(restored, res.Interrupted, broken, healed, re, s.Expect)
	res.OK = strings.HasPrefix(res.Verdict, "OK:")
	res.Transcript = strings.Join(r.lines, "\n") + "\n\n" + res.Verdict + "\n"
	if res.Warning != "" {
		res.Transcript += res.Warning + "\n"
	}
	r.dropBackup(restored, &res)
	return res
}

// verdict picks the first matching verdict, in aepkit's order
// (docs/negative-controls.md).
func verdict(restored, interrupted bool, broken, healed outcome, re *regexp.Regexp, expect string) (string, string) {
	switch {
	case !restored:
		return verdictNotRestored, ""
	case interrupted:
		return verdictInterrupted, ""
	case broken.timedOut:
		return verdictTimedOut, ""
	case broken.code == 0:
		return verdictDidNotFail, ""
	case re != nil && !re.MatchString(broken.output):
		return fmt.Sprintf(verdictExpectFormat, expect), ""
	case healed.code != 0:
		return verdictNotGreen, ""
	}
	if sig := crashSignature(broken.output); re == nil && sig != "" {
		return verdictOK, crashWarning(sig)
	}
	return verdictOK, ""
}

// takeBackup fingerprints File and copies it into a fresh backup directory.
func (r *runner) takeBackup() error {
	path := r.spec.path()
	fp, err := fingerprintOf(path)
	if err != nil {
		return fmt.Errorf("could not read %s: %w", r.spec.File, err)
	}
	b, err := backup(path, r.spec.BackupDir)
	if err != nil {
		return fmt.Errorf("could not back up %s: %w", r.spec.File, err)
	}
	r.orig, r.backup = fp, b
	r.line("$ backed up %s -> %s", r.spec.File, b)
	return nil
}

// restore runs the restore command, if any, then (with File) verifies the
// file byte for byte and falls back to the backup. It reports whether the
// protection is back.
func (r *runner) restore() bool {
	s := r.spec
	ok := true
	if s.Restore != "" {
		timeout := s.Timeout
		if r.stopped() && (timeout == 0 || timeout > interruptedRestoreLimit) {
			timeout = interruptedRestoreLimit
		}
		o := r.exec(context.WithoutCancel(r.ctx), s.Restore, s.Restore, timeout)
		r.line("(restore exit %d)", o.code)
		ok = o.code == 0
		if s.File != "" && !sameContent(s.path(), r.orig) {
			r.line("WARNING: --restore-cmd did not restore the file; using the backup.")
		}
	}
	if s.File == "" {
		return ok
	}
	return r.restoreFile()
}

// restoreFile makes File byte-identical to the backup again.
func (r *runner) restoreFile() bool {
	s := r.spec
	if s.Confine != "" {
		if err := insideForWrite(s.Confine, s.path()); err != nil {
			r.line("ERROR: %s now %v; not restored through it.", s.File, err)
			return false
		}
	}
	if sameContent(s.path(), r.orig) {
		r.line("$ %s is byte-identical to the backup", s.File)
		return r.restoreMode()
	}
	if err := copyFile(r.backup, s.path()); err != nil {
		r.line("ERROR: could not restore %s from the backup: %v", s.File, err)
		return false
	}
	if !sameContent(s.path(), r.orig) {
		r.line("$ restored %s from backup - WARNING: still differs from backup", s.File)
		return false
	}
	r.line("$ restored %s from backup (byte-identical)", s.File)
	return r.restoreMode()
}

// restoreMode puts back the file's permission bits when the break changed
// them but not its bytes (a "chmod -x" break).
func (r *runner) restoreMode() bool {
	fi, err := os.Stat(r.spec.path())
	if err != nil {
		r.line("ERROR: could not check the mode of %s: %v", r.spec.File, err)
		return false
	}
	if fi.Mode().Perm() == r.orig.perm {
		return true
	}
	if err := os.Chmod(r.spec.path(), r.orig.perm); err != nil {
		r.line("ERROR: could not restore the mode of %s: %v", r.spec.File, err)
		return false
	}
	r.line("$ restored the mode of %s (%v)", r.spec.File, r.orig.perm)
	return true
}

// dropBackup deletes the backup after a good restore and keeps it, with a
// notice, otherwise.
func (r *runner) dropBackup(restored bool, res *Result) {
	if r.backup == "" {
		return
	}
	dir := filepath.Dir(r.backup)
	if restored {
		os.RemoveAll(dir)
		return
	}
	res.BackupKept = r.backup
	res.Notices = append(res.Notices, "Backup kept at "+r.backup)
}
