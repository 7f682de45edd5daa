package closurerules

import "fmt"

// Acknowledge says whether the App counts one `/aep close` comment c on
// the unit of f, and when not, why (the reply's reason): the command rules
// first (a newly created, unedited comment), then its author's authority
// (rules.Authority: a listed owner, a User, live write), then the HOLD —
// hold applies now, or f says the unit was closed while one applied; a
// closure under HOLD is never evidence (rules.HoldVoids). An accepted
// command counts once the issue is closed as completed. It applies the
// same rules Judge does, so a comment is acknowledged as counting exactly
// when Judge would count it.
func Acknowledge(f Facts, c Command, hold string, rules Rules) string {
	if c.Reason == "" {
		return fmt.Sprintf("`%s close` needs a reason: `%s close <reason>`", f.prefix(), f.prefix())
	}
	if why := commandRefused(rules.Command, c); why != "" {
		return why + "; only a newly created, unedited comment is a command"
	}
	if why := authority(rules.Authority, c.Actor, f.Owners); why != "" {
		return why + "; only an owner's own `close` counts"
	}
	if !rules.HoldVoids {
		return ""
	}
	if hold != "" {
		return fmt.Sprintf("a HOLD applies (%s), and a closure under HOLD is never evidence; the owner says `%s resume`, then `%s close <reason>` again", hold, f.prefix(), f.prefix())
	}
	if !f.Open && f.Hold != "" {
		return fmt.Sprintf("#%d was closed while a HOLD applied (%s), and a closure under HOLD is never evidence; reopen it and close it again", f.Number, f.Hold)
	}
	return ""
}
