package gatelog

import (
	"strings"
	"testing"
)

// kelvin is "kate" with U+212A KELVIN SIGN for its k: strings.EqualFold
// folds it to "kate", GitHub does not (logins are ASCII).
const kelvin = "\u212Aate"

// kelvinInput is kate's HOLD and the Kelvin-sign login's resume of it; the
// App knows kate's permission only.
func kelvinInput() Input {
	in := input(
		comment(1, "kate", unitIssue, 1, "/aep hold waiting for legal"),
		comment(2, kelvin, unitIssue, 2, "/aep resume"),
	)
	in.Policy.Owners = []string{"kate"}
	in.Permissions = Permissions{"kate": "admin"}
	return in
}

// TestLookalikeLoginIsNoOwner: a login equal to an owner's only under
// Unicode case folding is not the owner: its resume is refused, the HOLD
// stays.
func TestLookalikeLoginIsNoOwner(t *testing.T) {
	res := Build(kelvinInput())
	var resume *Outcome
	for i, o := range res.Outcomes {
		if o.ItemID == 2 {
			resume = &res.Outcomes[i]
		}
	}
	if resume == nil || resume.Accepted {
		t.Fatalf("the Kelvin-sign login's resume = %+v; want it refused", resume)
	}
	if len(res.Blockers) != 1 {
		t.Errorf("blockers = %+v; want kate's HOLD", res.Blockers)
	}
}

// TestLookalikeLoginNegativeControl: with strings.EqualFold injected for
// the login comparison, the Kelvin-sign login is listed as an owner and
// inherits kate's admin permission, the two facts that let its resume
// count.
func TestLookalikeLoginNegativeControl(t *testing.T) {
	in := kelvinInput()
	if !listedBy(in.Policy.Owners, kelvin, strings.EqualFold) || permissionBy(in.Permissions, kelvin, strings.EqualFold) != "admin" {
		t.Fatalf("with EqualFold the Kelvin-sign login is not taken for kate: the control shows nothing")
	}
	if listed(in.Policy.Owners, kelvin) || permission(in.Permissions, kelvin) != "" {
		t.Errorf("the Kelvin-sign login is listed (%v) or has a permission (%q)", listed(in.Policy.Owners, kelvin), permission(in.Permissions, kelvin))
	}
	if !listed(in.Policy.Owners, "KATE") || permission(in.Permissions, "KATE") != "admin" {
		t.Errorf("KATE, kate in other ASCII case, is not taken for kate")
	}
}
