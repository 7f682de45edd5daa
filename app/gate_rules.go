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
