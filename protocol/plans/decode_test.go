package plans

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseStateErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Errors
	}{
		{"unknown key", "{\n \"version\": 1,\n \"phase\": 1,\n \"executor\": \"e\",\n \"status\": \"claimed\",\n \"sneaky\": true\n}",
			Errors{{File: "s.json", Line: 6, Field: "sneaky", Message: "unknown key (see https://github.com/aepgate/aepgate/blob/main/docs/plans.md for the keys of this file)"}}},
		{"wrong type", "{\n \"version\": \"1\"\n}",
			Errors{{File: "s.json", Line: 2, Field: "version", Message: "want int, got JSON string"}}},
		{"future version", "{\"version\": 2, \"phase\": 1, \"executor\": \"e\", \"status\": \"claimed\"}",
			Errors{{File: "s.json", Line: 1, Field: "version", Message: "version 2 is not supported (want 1)"}}},
		{"missing exit code", "{\"version\": 1, \"phase\": 1, \"executor\": \"e\", \"status\": \"claimed\",\n\"verification\": [\n{\"command\": \"go test\"}]}",
			Errors{{File: "s.json", Line: 3, Field: "verification[0].exit_code", Message: "required: the command's exit code as observed"}}},
		{"done task without commit", "{\"version\": 1, \"phase\": 1, \"executor\": \"e\", \"status\": \"claimed\",\n\"tasks\": [{\"id\": \"1.1\",\n \"status\": \"done\"}]}",
			Errors{{File: "s.json", Line: 2, Field: "tasks[0].commit", Message: `a done task names its commit as a lowercase SHA (7 to 64 hex digits), got ""`}}},
		{"trailing data", "{\"version\": 1, \"phase\": 1, \"executor\": \"e\", \"status\": \"claimed\"} {}",
			Errors{{File: "s.json", Message: "unexpected data after the top-level object"}}},
		{"syntax", "{\n\"version\": 1,,\n}",
			Errors{{File: "s.json", Line: 2, Message: "invalid JSON: invalid character ',' looking for beginning of object key string"}}},
		{"empty", "", Errors{{File: "s.json", Message: "invalid JSON: unexpected end of file"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseState("s.json", []byte(tc.in))
			var got Errors
			if !errors.As(err, &got) {
				t.Fatalf("ParseState error = %v, want Errors", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseProgressErrors(t *testing.T) {
	in := `{"version": 1, "slug": "Bad Slug", "owner": "o", "phases": [
{"id": 1, "title": "a", "depends_on": [1], "tasks": [{"id": "1.1"}, {"id": "1.1"}]},
{"id": 3, "title": "b", "tasks": []}]}`
	_, err := ParseProgress("p.json", []byte(in))
	want := `p.json:1: slug: want a slug of lowercase letters, digits, '.', '_' or '-', got "Bad Slug"
p.json:2: phases[0].depends_on[0]: phase 1 may depend only on an earlier phase, got 1
p.json:2: phases[0].tasks[1].id: task ID "1.1" is used twice
p.json:3: phases[1].id: phases are numbered 1, 2, … in order: want 2, got 3`
	if err == nil || err.Error() != want {
		t.Errorf("ParseProgress error =\n%v\nwant\n%s", err, want)
	}
}

func TestParseReviewErrors(t *testing.T) {
	_, err := ParseReview("r.json", []byte(`{"version": 1, "phase": 1, "reviewer": "r", "verdict": "lgtm", "commit": "abc"}`))
	want := `r.json:1: verdict: want approved or changes_requested, got "lgtm"
r.json:1: commit: want the reviewed commit as a full lowercase SHA, got "abc"`
	if err == nil || err.Error() != want {
		t.Errorf("ParseReview error =\n%v\nwant\n%s", err, want)
	}
}

func TestPhaseFromBranch(t *testing.T) {
	tests := []struct {
		branch string
		slug   string
		n      int
		ok     bool
	}{
		{"plan/billing/phase-2", "billing", 2, true},
		{"plan/billing/phase-0", "", 0, false},
		{"plan/billing/phase-2x", "", 0, false},
		{"feature/x", "", 0, false},
	}
	for _, tc := range tests {
		slug, n, ok := PhaseFromBranch(tc.branch)
		if slug != tc.slug || n != tc.n || ok != tc.ok {
			t.Errorf("PhaseFromBranch(%q) = %q, %d, %v; want %q, %d, %v", tc.branch, slug, n, ok, tc.slug, tc.n, tc.ok)
		}
	}
}
