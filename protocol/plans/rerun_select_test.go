package plans

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const selectState = `{"version": 1, "phase": 1, "executor": "e", "status": "needs_review",
"verification": [
  {"command": "go test ./...", "exit_code": 0},
  {"command": "env > leak; true", "exit_code": 0}
]}`

func TestSelectReruns(t *testing.T) {
	st, err := ParseState("plans/p/state/phase-1.json", []byte(selectState))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		base         *Progress
		wantCommands []string
		wantRefused  []int // lines of the refusals
		wantUnlisted bool
	}{
		{"listed: the unlisted command is refused", &Progress{VerifyCommands: []string{"go test ./..."}},
			[]string{"go test ./..."}, []int{4}, false},
		{"listed empty: nothing runs", &Progress{VerifyCommands: []string{}}, nil, []int{3, 4}, false},
		{"near miss is not a match", &Progress{VerifyCommands: []string{"go test ./... ", "env > leak"}}, nil, []int{3, 4}, false},
		// Without a list the command runs: the negative control of the
		// refusal, and the case the caller warns about.
		{"no list: executor's choice", &Progress{}, []string{"go test ./...", "env > leak; true"}, nil, true},
		{"no contract at the base", nil, []string{"go test ./...", "env > leak; true"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SelectReruns(tt.base, "plans/p/state/phase-1.json", st)
			var lines []int
			for _, f := range got.Refused {
				if f.Rule != "rerun" || f.File != "plans/p/state/phase-1.json" {
					t.Errorf("refusal %+v", f)
				}
				lines = append(lines, f.Line)
			}
			if diff := cmp.Diff(tt.wantCommands, got.Commands); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantRefused, lines); diff != "" {
				t.Errorf("refused lines (-want +got):\n%s", diff)
			}
			if got.Unlisted != tt.wantUnlisted {
				t.Errorf("Unlisted = %v, want %v", got.Unlisted, tt.wantUnlisted)
			}
		})
	}
}

func TestRerunsCompare(t *testing.T) {
	st, err := ParseState("s.json", []byte(selectState))
	if err != nil {
		t.Fatal(err)
	}
	r := SelectReruns(&Progress{VerifyCommands: []string{"env > leak; true"}}, "s.json", st)
	got := r.Compare("s.json", st, []Run{{ExitCode: 1, OutputTail: "boom"}})
	var lines []string
	for _, f := range got {
		lines = append(lines, fmt.Sprintf("%s@%d", f.Rule, f.Line))
	}
	// The refusal of entry 0 (line 3), then the false green of entry 1,
	// whose exit code is on line 4.
	if diff := cmp.Diff([]string{"rerun@3", "rerun@4"}, lines); diff != "" {
		t.Errorf("findings (-want +got):\n%s\n%+v", diff, got)
	}
}

func TestParseProgressVerifyCommands(t *testing.T) {
	in := `{"version": 1, "slug": "p", "owner": "o", "phases": [{"id": 1}],
"verify_commands": ["go test ./...",
 " ", "go test ./..."]}`
	_, err := ParseProgress("p.json", []byte(in))
	want := `p.json:3: verify_commands[1]: want a shell command, got an empty string
p.json:3: verify_commands[2]: command "go test ./..." is listed twice`
	if err == nil || err.Error() != want {
		t.Errorf("ParseProgress error =\n%v\nwant\n%s", err, want)
	}
	p, err := ParseProgress("p.json", []byte(`{"version": 1, "slug": "p", "owner": "o", "phases": [{"id": 1}], "verify_commands": []}`))
	if err != nil || p.VerifyCommands == nil {
		t.Errorf("an empty list must stay a list (nothing may run): %v, %#v", err, p.VerifyCommands)
	}
}
