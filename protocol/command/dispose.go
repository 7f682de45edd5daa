package command

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// VerbDispose proposes how an audit finding is settled (docs/audit.md).
const VerbDispose = "dispose"

// Kinds of a disposition.
const (
	DisposeFixed        = "fixed"
	DisposeRefuted      = "refuted"
	DisposeDuplicate    = "duplicate"
	DisposeOutsideScope = "outside_scope"
)

// DisposeKinds are the kinds a dispose command accepts, in the order the
// usage names them.
var DisposeKinds = []string{DisposeFixed, DisposeRefuted, DisposeDuplicate, DisposeOutsideScope}

// ledgerID is a finding's ledger ID: <id>@r<review-id>.
var ledgerID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}@r[1-9][0-9]{0,17}$`) })

// IsLedgerID reports whether s has the form of a finding's ledger ID,
// <id>@r<review-id>, e.g. F1@r7: the id is 1 to 64 letters, digits, dots,
// dashes or underscores; the review id is a positive number of at most 18
// digits.
func IsLedgerID(s string) bool { return ledgerID().MatchString(s) }

// ParseDisposeArgs reads the arguments of a dispose command, the text after
// the verb: "<finding> <kind> -- <reason>". The finding is a ledger ID,
// the kind one of DisposeKinds, and the reason after "--" is required.
func ParseDisposeArgs(args string) (finding, kind, reason string, err error) {
	head, reason, found := cutDashes(args)
	f := strings.Fields(head)
	if len(f) > 0 {
		finding = f[0]
	}
	if len(f) > 1 {
		kind = f[1]
	}
	switch {
	case len(f) != 2:
		return finding, kind, reason, fmt.Errorf("dispose takes a finding and a kind before `--`")
	case !IsLedgerID(finding):
		return finding, kind, reason, fmt.Errorf("%q is not a finding's ledger ID such as F1@r7", finding)
	case !contains(DisposeKinds, kind):
		return finding, kind, reason, fmt.Errorf("%q is not a disposition (expected %s)", kind, strings.Join(DisposeKinds, ", "))
	case !found || reason == "":
		return finding, kind, reason, fmt.Errorf("dispose needs a reason after `--`")
	}
	return finding, kind, reason, nil
}

// parseDispose fills the dispose fields of c from the text after the verb.
func parseDispose(c *Command, rest, prefix string) {
	args := strings.TrimSpace(rest)
	args = strings.TrimSpace(strings.TrimPrefix(args, VerbDispose))
	var err error
	c.FindingID, c.Kind, c.Reason, err = ParseDisposeArgs(args)
	if err != nil {
		c.Err = usageErr(prefix, "%s", err.Error())
	}
}

// cutDashes splits s around its first "--" that stands as a word of its
// own (whitespace or an edge on both sides), trimming both halves.
func cutDashes(s string) (before, after string, found bool) {
	for i := 0; i+2 <= len(s); i++ {
		if s[i:i+2] != "--" || (i > 0 && !isSpace(s[i-1])) || (i+2 < len(s) && !isSpace(s[i+2])) {
			continue
		}
		return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+2:]), true
	}
	return strings.TrimSpace(s), "", false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }
