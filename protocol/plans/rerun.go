package plans

import "fmt"

// Run is the observed outcome of re-running one recorded verification
// command.
type Run struct {
	ExitCode   int
	OutputTail string
}

// CompareRuns compares each recorded verification of s (at file) with its
// re-run, runs[i] for s.Verification[i]. A recorded 0 that is really
// non-zero is a "false green"; any other difference is a mismatch.
func CompareRuns(file string, s *State, runs []Run) []Finding {
	var out []Finding
	for i := range s.Verification {
		if i >= len(runs) {
			break
		}
		out = append(out, compareRun(file, s, i, runs[i])...)
	}
	return out
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
