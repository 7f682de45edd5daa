package checks

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	sha := strings.Repeat("b", 40)
	ok := Run{Name: "aep/lint", HeadSHA: sha, Conclusion: ConclusionSuccess, Title: "t", Summary: "s"}
	tests := []struct {
		name    string
		mutate  func(*Run)
		wantErr string // "" = valid
	}{
		{"valid", func(*Run) {}, ""},
		{"queued", func(r *Run) { r.Conclusion = "" }, ""},
		{"no name", func(r *Run) { r.Name = "" }, "name is empty"},
		{"branch not sha", func(r *Run) { r.HeadSHA = "main" }, "not 40 hexadecimal"},
		{"completed without conclusion", func(r *Run) { r.Status, r.Conclusion = StatusCompleted, "" }, "without a conclusion"},
		{"conclusion while in progress", func(r *Run) { r.Status = StatusInProgress }, "a conclusion completes the run"},
		{"stale is GitHub's", func(r *Run) { r.Conclusion = "stale" }, "unknown conclusion"},
		{"unknown status", func(r *Run) { r.Status, r.Conclusion = "running", "" }, "unknown status"},
		{"four actions", func(r *Run) {
			for range 4 {
				r.Actions = append(r.Actions, Action{Label: "l", Description: "d", Identifier: "i"})
			}
		}, "at most 3"},
		{"long label", func(r *Run) {
			r.Actions = []Action{{Label: strings.Repeat("l", 21), Description: "d", Identifier: "i"}}
		}, "more than 20"},
		{"long description", func(r *Run) {
			r.Actions = []Action{{Label: "l", Description: strings.Repeat("d", 41), Identifier: "i"}}
		}, "more than 40"},
		{"long identifier", func(r *Run) {
			r.Actions = []Action{{Label: "l", Description: "d", Identifier: strings.Repeat("i", 21)}}
		}, "more than 20"},
		{"bad annotation", func(r *Run) {
			r.Annotations = []Annotation{{Level: "error"}}
		}, "path is empty"},
		{"summary over limit", func(r *Run) { r.Summary = strings.Repeat("x", MaxSummaryBytes+1) }, "call Fit first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok
			tt.mutate(&r)
			err := Validate(r)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestFitThenValidateAcceptsOversize(t *testing.T) {
	r := Run{Name: "n", HeadSHA: strings.Repeat("c", 40), Conclusion: ConclusionNeutral,
		Title: strings.Repeat("é", 400), Summary: strings.Repeat("line\n", 20000), Text: strings.Repeat("x", 70000)}
	if err := Validate(Fit(r)); err != nil {
		t.Errorf("Validate(Fit(r)) = %v", err)
	}
}
