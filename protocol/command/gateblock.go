package command

import "github.com/aepgate/aepgate/protocol/position"

// GateInfo is the info string of a fenced block that opens a gate.
const GateInfo = "aep-gate"

// Limits on a gate block: the question is at most MaxText characters and a
// gate offers at most MaxChoices choices of at most MaxChoice characters.
const (
	MaxText    = 800
	MaxChoices = 32
	MaxChoice  = 100
)

// GateSpec is a gate as an aep-gate block asks for it, validated: the
// category and effect are gate's enumerations, the scope is a gate scope,
// the choices are normalised as gate.NormaliseChoices does and are single
// words, so that `/aep resolve <id> <choice>` can name them.
type GateSpec struct {
	// Line is the 1-based line of the block's opening fence.
	Line int
	// ID is the gate id cleaned by gate.CleanID; empty when the block has
	// none (the caller then derives one).
	ID       string
	Question string
	Choices  []string
	// Category is the owner-only category.
	Category string
	// Effect is the external effect.
	Effect string
	// Scope is the blocking scope; gate.ScopeWorkUnit when the block has none.
	Scope string
	// SafeDefault is one of Choices, or empty.
	SafeDefault string
	// DecisionKey is nil when the block has none.
	DecisionKey *string
}

// BlockError is one reason an aep-gate block was refused, positioned in the
// comment: Block is the 1-based line of the block's opening fence, Line the
// 1-based line of the problem in the comment, Field the block's key the
// problem is about (empty for the block). It renders as
// "line 4: choices: must list ...".
type BlockError = position.Problem

// ParseGateBlocks returns the gates that the comment's fenced aep-gate
// blocks ask for (outside quotes), in order, and a *BlockError for every
// problem of the blocks that were refused. A block with any problem yields
// no GateSpec. Decoding is strict: an unknown or repeated key, a wrong type,
// a missing required field or a value outside gate's enumerations is a
// problem naming the field.
func ParseGateBlocks(body string) ([]GateSpec, []error) {
	var specs []GateSpec
	var errs []error
	for _, f := range scan(body).fences {
		if f.info != GateInfo {
			continue
		}
		spec, probs := decodeBlock(f)
		if len(probs) > 0 {
			errs = append(errs, probs...)
			continue
		}
		specs = append(specs, spec)
	}
	return specs, errs
}
