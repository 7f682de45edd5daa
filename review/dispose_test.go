package review

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestDispositions(t *testing.T) {
	evJSON := "```aep-evidence\n[{\"path\": \"src/auth.go\", \"quote\": \"func Check(\"}]\n```"
	evYAML := "```aep-evidence\n- path: src/auth.go\n  quote: \"func Check(\"\n```"
	ev := []Evidence{{"src/auth.go", "func Check("}}
	tests := []struct {
		name string
		body string
		want []Disposition
		errs []string
	}{
		{"fixed without evidence", "Done.\n/aep dispose F1@r7 fixed -- moved the check into Check", []Disposition{{FindingID: "F1@r7", Kind: "fixed", Reason: "moved the check into Check"}}, nil},
		{"refuted with JSON evidence", "/aep dispose F1@r7 refuted -- Check rejects empty tokens\n\n" + evJSON,
			[]Disposition{{FindingID: "F1@r7", Kind: "refuted", Reason: "Check rejects empty tokens", Evidence: ev}}, nil},
		{"two commands share the YAML evidence", "/aep dispose F1@r7 refuted -- a\n/aep dispose F2@r7 duplicate -- same as F1\n\n" + evYAML,
			[]Disposition{{FindingID: "F1@r7", Kind: "refuted", Reason: "a", Evidence: ev}, {FindingID: "F2@r7", Kind: "duplicate", Reason: "same as F1", Evidence: ev}}, nil},
		{"other commands are not dispositions", "/aep status", nil, nil},
		{"quoted command", "> /aep dispose F1@r7 fixed -- x", nil, nil},
		{"refuted needs evidence", "/aep dispose F1@r7 refuted -- trust me", nil, []string{"F1@r7: a refuted disposition quotes its evidence in an aep-evidence block"}},
		{"malformed command", "/aep dispose F1 fixed -- x", nil, []string{"line 1: \"F1\" is not a finding's ledger ID such as F1@r7; the valid forms are `/aep hold <reason>`, `/aep resume`, `/aep resolve <gate-id> <choice>`, `/aep status`, `/aep recheck`, `/aep merge`, `/aep close <reason>`, `/aep accept <milestone-number> <sha>`, `/aep accept-merge <merge-sha>`, `/aep override <check> <reason>`, `/aep waive <reason>`, `/aep dispose <finding> fixed|refuted|duplicate|outside_scope -- <reason>`"}},
		{"private evidence path", "/aep dispose F1@r7 refuted -- x\n```aep-evidence\n- path: .env\n  quote: TOKEN\n```",
			nil, []string{`the aep-evidence block: $[0].path: ".env" is a private or credential path (.env*); evidence never quotes it`}},
		{"evidence not a list", "/aep dispose F1@r7 fixed -- x\n```aep-evidence\npath: a\n```", nil, []string{"the aep-evidence block: $: must be a list, not an object"}},
		{"two evidence blocks", "/aep dispose F1@r7 fixed -- x\n" + evJSON + "\n" + evJSON, nil, []string{"the comment has 2 aep-evidence blocks; it may hold one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := Dispositions(tt.body, "")
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("dispositions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.errs, msgs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
