package checks

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

var incSHA = strings.Repeat("3", 40)

// incrementCert is a valid low increment certificate at incSHA.
func incrementCert() []byte {
	return []byte(`{"integratedSha":"` + incSHA + `","kind":"increment","milestone":4,"readbackRunIds":["900"],"readbackRuns":[{"id":"900","workflow":"ci"}],` +
		`"repository":"o/r","riskTier":"low","schemaVersion":1,"stories":[{"mergeSha":"` + incSHA + `","risk":"low","unit":1}],"title":"M1"}`)
}

func TestIncrementRender(t *testing.T) {
	raw := incrementCert()
	tests := []struct {
		file string
		v    incrementrules.Verdict
	}{
		{"increment-complete.golden", incrementrules.Verdict{Milestone: 4, Stage: incrementrules.Complete, Tier: "low", Candidate: incSHA, Certificate: raw, SHA256: sha256Hex(string(raw))}},
		{"increment-integrating.golden", incrementrules.Verdict{Milestone: 4, Stage: incrementrules.Integrating, Tier: "medium", Candidate: incSHA,
			Missing: []incrementrules.Missing{{Rule: "readback-at-candidate", What: "waiting for a run of ci at 333333333333"}}}},
		{"increment-accepting.golden", incrementrules.Verdict{Milestone: 4, Stage: incrementrules.Accepting, Tier: "high", Candidate: incSHA,
			AcceptCommand: "/aep accept 4 " + incSHA, DemoTemplate: "```aep-demo\nmilestone: 4\ncriterion: <b>it</b> works @all\nevidence: run <id> | deployment <id> | release <tag>\n```",
			Missing: []incrementrules.Missing{{Rule: "owner-acceptance", What: "high risk: an owner accepts candidate 333333333333", Action: true},
				{Rule: "demonstration", What: "the demonstration: <b>it</b> works @all", Action: true}}}},
		{"increment-tampered.golden", incrementrules.Verdict{Milestone: 4, Stage: incrementrules.Accepting, Tier: "high", Candidate: incSHA,
			AcceptCommand: "/aep accept 4 " + incSHA, Missing: []incrementrules.Missing{{Rule: "owner-acceptance", What: "high risk: an owner accepts candidate 333333333333", Action: true}},
			Tampering: []string{"milestone 4's description was changed by someone GitHub does not name, so the kept definition counts (risk lowered from high to low)"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			golden.CheckString(t, filepath.Join("testdata", tt.file), dump(Increment(tt.v)))
		})
	}
}

// TestVerifyIncrementRun: each tampering is refused with every rule, and
// passes with the one rule that stops it removed.
func TestVerifyIncrementRun(t *testing.T) {
	raw := incrementCert()
	good := IncrementCertificateRun(incSHA, raw, sha256Hex(string(raw)))
	if _, rs := VerifyIncrementRun(good); len(rs) != 0 {
		t.Fatalf("the rendered run is refused: %+v", rs)
	}
	edit := func(f func(*Run)) Run { r := good; f(&r); return r }
	tests := []struct {
		name  string
		run   Run
		rule  incrementRule
		token string
	}{
		{"not success", edit(func(r *Run) { r.Conclusion = ConclusionNeutral }), ruleIncrementConclusion, TokenIncrementConclusion},
		{"title of another certificate", edit(func(r *Run) { r.Title = IncrementTitle(strings.Repeat("0", 64)) }), ruleIncrementTitle, TokenIncrementTitle},
		{"external id of another certificate", edit(func(r *Run) { r.ExternalID = CertificateExternalID(strings.Repeat("0", 64)) }), ruleIncrementExternalID, TokenIncrementExternalID},
		{"moved to another commit", edit(func(r *Run) { r.HeadSHA = strings.Repeat("4", 40) }), ruleIncrementIntegratedSha, TokenIncrementIntegratedSha},
		{"header names another sum", edit(func(r *Run) {
			r.Summary = incrementSummary(string(raw), strings.Repeat("0", 64))
		}), ruleIncrementSummarySum, TokenIncrementSummarySum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rs := VerifyIncrementRun(tt.run)
			if !slices.Contains(refusal.Tokens(rs), tt.token) {
				t.Fatalf("tampering not refused with %s: %v", tt.token, refusal.Tokens(rs))
			}
			var fewer []incrementRule
			for _, r := range incrementRules() {
				if !sameRule(r, tt.rule) {
					fewer = append(fewer, r)
				}
			}
			if _, rs := verifyIncrementRun(tt.run, fewer); len(rs) != 0 {
				t.Errorf("negative control: with the rule removed the tampering should pass, got %v", refusal.Tokens(rs))
			}
		})
	}
	if _, rs := VerifyIncrementRun(edit(func(r *Run) { r.Summary += "\nmore" })); !slices.Contains(refusal.Tokens(rs), TokenIncrementSummary) {
		t.Errorf("text after the block not refused: %v", refusal.Tokens(rs))
	}
}

func sameRule(a, b incrementRule) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

// TestIncrementWithdrawnRender: the withdrawn certificate names the new
// candidate (or says there is none) and no longer verifies.
func TestIncrementWithdrawnRender(t *testing.T) {
	raw := incrementCert()
	sum := sha256Hex(string(raw))
	next := strings.Repeat("4", 40)
	tests := []struct {
		file, candidate, why string
	}{
		{"increment-withdrawn.golden", next, "milestone 4's integrated candidate is now " + next + " (stage accepting)"},
		{"increment-withdrawn-none.golden", "", "milestone 4 has no integrated candidate now (stage building)"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := IncrementWithdrawn(incSHA, CertificateExternalID(sum), 4, tt.candidate, tt.why)
			golden.CheckString(t, filepath.Join("testdata", tt.file), dump(r))
			if _, rs := VerifyIncrementRun(r); len(rs) == 0 {
				t.Errorf("a withdrawn certificate still verifies")
			}
		})
	}
}
