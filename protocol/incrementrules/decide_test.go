package incrementrules

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/google/go-cmp/cmp"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name       string
		facts      Facts
		wantStage  Stage
		wantTier   string
		wantRules  []string
		wantAction bool
	}{
		{"complete medium", complete(), Complete, "medium", nil, false},
		{"a story still open", with(complete(), func(f *Facts) { f.Stories[2].Closure.State = closurerules.Open }), Building, "medium", []string{"every-story-done"}, false},
		{"a story closed without evidence", with(complete(), func(f *Facts) {
			f.Stories[0].Closure = closurerules.Verdict{Number: 1, State: closurerules.WithoutEvidence, Closer: "carl", Missing: "no certificate", Command: "/aep close <reason>"}
		}), Building, "medium", []string{"every-story-done"}, true},
		{"no stories", with(complete(), func(f *Facts) { f.Stories = nil }), Building, "low", []string{"stories-listed"}, true},
		{"readback still running", with(complete(), func(f *Facts) { f.Runs[0].Status = "in_progress" }), Integrating, "medium", []string{"readback-at-candidate"}, false},
		{"readback failed", with(complete(), func(f *Facts) { f.Runs[0].Conclusion = "failure" }), Integrating, "medium", []string{"readback-at-candidate"}, true},
		{"readback at another commit", with(complete(), func(f *Facts) { f.Runs[0].HeadSHA = sha("2") }), Integrating, "medium", []string{"readback-at-candidate"}, false},
		{"readback on another branch", with(complete(), func(f *Facts) { f.Runs[0].Branch = "feature" }), Integrating, "medium", []string{"readback-at-candidate"}, false},
		{"no readback workflow configured", with(complete(), func(f *Facts) { f.Required = nil }), Integrating, "medium", []string{"readback-at-candidate"}, true},
		{"candidate misses a merge", with(complete(), func(f *Facts) { f.Candidate.Contains[sha("1")] = false }), Integrating, "medium", []string{"candidate-contains-every-merge"}, false},
		{"medium story uncertified", with(complete(), func(f *Facts) { f.Stories[1].Attempts[0].CertificateSHA256 = "" }), Integrating, "medium", []string{"stories-certified"}, true},
		{"low increment needs no certificates", with(complete(), func(f *Facts) {
			for i := range f.Stories {
				f.Stories[i].Risk, f.Stories[i].Attempts[0].CertificateSHA256 = "low", ""
			}
		}), Complete, "low", nil, false},
		{"unreadable story risk counts high", with(complete(), func(f *Facts) { f.Stories[0].Risk = "" }), Accepting, "high", []string{"owner-acceptance"}, true},
		{"high without acceptance", with(complete(), high), Accepting, "high", []string{"owner-acceptance"}, true},
		{"high accepted", with(complete(), func(f *Facts) { high(f); f.Comments = []Comment{accept(5, owner, "4", sha("3"))} }), Complete, "high", nil, false},
		{"demonstration missing", with(complete(), demonstrating), Accepting, "medium", []string{"demonstration"}, true},
		{"demonstrated by a coordinator", with(complete(), func(f *Facts) { demonstrating(f); f.Comments = []Comment{demo(6, coordinator, criterion)} }), Complete, "medium", nil, false},
		{"closed early", with(complete(), func(f *Facts) { f.Open = false; f.Runs = nil; f.ClosedBy = coordinator }), Integrating, "medium", []string{"readback-at-candidate"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Decide(tt.facts)
			var rules []string
			for _, m := range v.Missing {
				rules = append(rules, m.Rule)
			}
			type view struct {
				Stage  Stage
				Tier   string
				Rules  []string
				Action bool
				Cert   bool
			}
			want := view{tt.wantStage, tt.wantTier, tt.wantRules, tt.wantAction, tt.wantStage == Complete}
			got := view{v.Stage, v.Tier, rules, v.NeedsAction(), v.Certificate != nil && v.SHA256 != ""}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Decide (-want +got):\n%s\nmissing: %+v", diff, v.Missing)
			}
			if v.ClosedEarly != (!tt.facts.Open && !v.Complete()) {
				t.Errorf("ClosedEarly %v for open %v stage %s", v.ClosedEarly, tt.facts.Open, v.Stage)
			}
		})
	}
}

func TestCertificateGolden(t *testing.T) {
	f := with(complete(), func(f *Facts) {
		high(f)
		demonstrating(f)
		f.Comments = []Comment{accept(5, owner, "4", sha("3")), demo(6, owner, criterion)}
		f.Stories[0].Attempts[0].CertificateSHA256 = ""
		f.Runs = append(f.Runs, readbackrules.Run{ID: 901, Workflow: "ci", HeadSHA: sha("3"), Branch: "main", Status: "completed", Conclusion: "success"})
	})
	v := Decide(f)
	if v.Stage != Complete {
		t.Fatalf("stage %s, missing %+v", v.Stage, v.Missing)
	}
	golden.Check(t, "testdata/certificate.golden.json", append(v.Certificate, '\n'))
	if _, rs := Validate(v.Certificate); len(rs) != 0 {
		t.Errorf("Validate refused the drawn certificate: %+v", rs)
	}
}
