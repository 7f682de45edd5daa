package deploy

import (
	"fmt"

	"github.com/aepgate/aepgate/internal/store"
)

// entryKind is the ledger kind of every deployment decision.
const entryKind = "deployment_protection_rule"

// entry is one deployment decision's ledger row: what was asked, the rule
// that decided, the state (approved, rejected, waiting, gone or the
// answer it already had) and whether the App answered GitHub now.
func entry(in Input, d store.Deploy, rule, state, reason string, answered bool) store.Entry {
	return store.Entry{
		Kind: entryKind, DeliveryID: in.Delivery,
		Subject: fmt.Sprintf("%s deploy run %d %s@%s", d.Repo, d.RunID, d.Environment, d.SHA),
		Body: map[string]any{
			"event": in.Event, "repository": d.Repo, "run_id": d.RunID, "environment": d.Environment, "sha": d.SHA,
			"requested_at": d.Requested, "rule": rule, "state": state, "reason": reason, "answered": answered,
		},
	}
}
