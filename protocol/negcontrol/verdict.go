package negcontrol

import "strings"

// Verdict lines, as aepkit prints them (docs/negative-controls.md).
const (
	verdictOK           = "OK: negative control verified — the check fails without the protection and passes with it."
	verdictNotRestored  = "FAIL: the protection was not restored. Check the tree before continuing."
	verdictTimedOut     = "FAIL: the test timed out when the protection was removed. A hang is not a caught break; make the test fail fast, or raise --timeout."
	verdictDidNotFail   = "FAIL: the test did not fail when the protection was removed. Either the break command didn't do what you meant, or the protection isn't real."
	verdictNotGreen     = "FAIL: the test did not return to passing after restore. The tree may be dirty."
	verdictInterrupted  = "FAIL: interrupted before the control was verified. The protection was restored; run it again."
	verdictExpectFormat = "FAIL: the test failed, but its output does not match --expect /%s/. It may have failed for an unrelated reason (a syntax error, a missing import, a wrong command); read the output above."
)

// crashSignatures are case-sensitive substrings of a failing output that
// usually mean the test never ran (aepkit's list, plus Go, Rust, Java and
// Node).
var crashSignatures = []string{
	// Python, pytest, Node, POSIX shell, Windows cmd (aepkit).
	"SyntaxError", "IndentationError", "ImportError", "ModuleNotFoundError",
	"ERROR collecting", "Cannot find module", "command not found",
	"is not recognized as an internal or external command",
	// Go.
	"[build failed]", "undefined:", "cannot find package", "no Go files", "[setup failed]",
	// Rust.
	"error[E", "could not compile",
	// Java and Maven.
	"COMPILATION ERROR", "ClassNotFoundException",
	// Node (ES modules).
	"ERR_MODULE_NOT_FOUND",
}

// crashSignature returns the first crash signature found in output, or "".
func crashSignature(output string) string {
	for _, sig := range crashSignatures {
		if strings.Contains(output, sig) {
			return sig
		}
	}
	return ""
}

// crashWarning is the WARNING line added to an OK verdict when the failing
// output holds a crash signature and no --expect was given.
func crashWarning(sig string) string {
	return "WARNING: the failing output contains '" + sig + "', which usually means the test did not run rather than caught the break. " +
		"Read the output above, and pass --expect with the failure you mean to see."
}
