package deploy

import (
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestGateComment: the question the owner answers names the gate, the
// environment, the commit and the run, with the exact commands.
func TestGateComment(t *testing.T) {
	d := store.Deploy{Repo: "acme/app", RunID: 1234567890, Environment: "production",
		SHA: "7638417db6d59f3c431d3e1f261cc637155684cd", Requested: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	for _, tt := range []struct{ name, prefix string }{{"gate-comment", ""}, {"gate-comment-prefix", "/ship"}} {
		t.Run(tt.name, func(t *testing.T) {
			golden.CheckString(t, "testdata/"+tt.name+".golden", gateComment(d, "auto-deploy-production-run1234567890", tt.prefix))
		})
	}
}
