package coverage

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// The tokens of Refusal, one per class that does not count as the audited
// change merged unchanged.
const (
	TokenResidual     = "coverage-residual"
	TokenUnverifiable = "coverage-unverifiable"
)

// Refusal is r as a readback refusal: nil for identity and replay; for a
// residual, the paths no audit covers and how to proceed; for
// unverifiable, why.
func Refusal(r Result) *refusal.Refusal {
	switch r.Class {
	case Identity, Replay:
		return nil
	case Residual:
		return &refusal.Refusal{
			Token:    TokenResidual,
			Expected: "the shipped tree to be the audited tree, or the audited change replayed onto the commit it landed on; accept the residual through an owner gate or have it audited",
			Seen:     r.Reason + ": " + strings.Join(r.ResidualPaths(), ", "),
		}
	}
	return &refusal.Refusal{
		Token:    TokenUnverifiable,
		Expected: "a replay git can make and compare (every commit in the repository, the audit's merge base, no conflict git cannot write)",
		Seen:     quote(r.Reason),
	}
}
