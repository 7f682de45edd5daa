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
	for i, v := range s.Verification {
		if i >= len(runs) || v.ExitCode == nil {
			break
		}
		got, want := runs[i].ExitCode, *v.ExitCode
		if got == want {
			continue
		}
		kind := "exit code mismatch"
		if want == 0 {
			kind = "false green"
		}
		out = append(out, Finding{Rule: "rerun", File: file, Line: s.Line(fmt.Sprintf("verification[%d].exit_code", i)),
			Message: fmt.Sprintf("%s: %q recorded exit code %d, re-run exited %d; output tail:\n%s",
				kind, v.Command, want, got, runs[i].OutputTail)})
	}
	return out
}
