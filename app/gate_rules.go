package app

import "github.com/aepgate/aepgate/protocol/gatelog"

// gateRules are the rules deciding which comments and reviews count in the
// gate log: rules, or gatelog.DefaultRules when nil (tests remove one to
// show what it stops).
func gateRules(rules []gatelog.Rule) []gatelog.Rule {
	if rules == nil {
		return gatelog.DefaultRules()
	}
	return rules
}

// buildGates derives the gate log from the conversation under the
// evaluation's gate rules.
func (ev *evaluation) buildGates() gatelog.Result {
	return gatelog.BuildWith(ev.gatesInput(), ev.gateRules)
}
