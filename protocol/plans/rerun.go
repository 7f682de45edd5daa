package plans

import "fmt"

// Run is the observed outcome of re-running one recorded verification
// command.
type Run struct {
	ExitCode   int
	OutputTail string
}

// compareRun compares s.Verification[i] with its re-run.
func compareRun(file string, s *State, i int, run Run) []Finding {
	v := s.Verification[i]
	if v.ExitCode == nil || run.ExitCode == *v.ExitCode {
		return nil
	}
	got, want := run.ExitCode, *v.ExitCode
	kind := "exit code mismatch"
	if want == 0 {
		kind = "false green"
	}
	return []Finding{{Rule: "rerun", File: file, Line: s.VerificationLine(i, "exit_code"),
		Message: fmt.Sprintf("%s: %q recorded exit code %d, re-run exited %d; output tail:\n%s",
			kind, v.Command, want, got, run.OutputTail)}}
}
