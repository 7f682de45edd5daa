package verdict

import (
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestPublishedAdvisory: only a valid config that says `mode: advisory`
// turns a failing outcome neutral, keeping what it would have concluded in
// the ledger facts; an invalid one fails closed.
func TestPublishedAdvisory(t *testing.T) {
	failing := Outcome{Run: checks.Run{Name: checks.NameGates, Conclusion: checks.ConclusionActionRequired, Title: "Blocked by 1 HOLD"}, Facts: map[string]any{"unit": 1}}
	advisory := config.Default()
	advisory.Mode = config.ModeAdvisory
	tests := []struct {
		name  string
		ev    *Evaluation
		want  checks.Conclusion
		would any
	}{
		{"advisory", &Evaluation{Snap: &snapshot.PR{}, Cfg: advisory}, checks.ConclusionNeutral, checks.ConclusionActionRequired},
		{"enforce", &Evaluation{Snap: &snapshot.PR{}, Cfg: config.Default()}, checks.ConclusionActionRequired, nil},
		{"invalid config", &Evaluation{Snap: &snapshot.PR{}, Cfg: advisory, CfgErrs: config.Errors{{Field: "mode"}}}, checks.ConclusionActionRequired, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.ev.Published(failing)
			if got.Run.Conclusion != tt.want || got.Facts["would_conclude"] != tt.would {
				t.Errorf("Published = %s (would %v); want %s (would %v)", got.Run.Conclusion, got.Facts["would_conclude"], tt.want, tt.would)
			}
		})
	}
	if failing.Facts["would_conclude"] != nil {
		t.Error("Published changed the outcome's facts in place")
	}
}
