package appkit

import (
	"slices"

	"github.com/aepgate/aepgate/protocol/gatelog"
)

// WithoutGateRule is gatelog.DefaultRules minus the rule called name: a
// negative control sets it as Options.Seams.GateRules to show the attack
// the rule stops succeeds without it.
func WithoutGateRule(name string) []gatelog.Rule {
	return slices.DeleteFunc(gatelog.DefaultRules(), func(r gatelog.Rule) bool { return r.Name == name })
}
