package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// ReadbackState is where a readback stands.
type ReadbackState int

// The three readback states: waiting for runs, verified, failed.
const (
	ReadbackWaiting ReadbackState = iota
	ReadbackVerified
	ReadbackFailed
)

// ReadbackView is what the aepgate/readback run shows: the merge, the
// decision of protocol/readbackrules, and what the App adds to it.
type ReadbackView struct {
	PR         int
	MergeSHA   string
	AuditedSHA string
	Branch     string
	State      ReadbackState
	// Awaited are the workflows still awaited (ReadbackWaiting).
	Awaited []string
	// Result is protocol/readbackrules's decision; Extra are the App's own
	// refusals beside it (a wait past the timeout, an unreadable input).
	Result readbackrules.Result
	Extra  []refusal.Refusal
	// Notes are lines for people below the evidence (e.g. the certificate).
	Notes []string
}

// maxTitleTokens is how many refusal tokens a failure's title names.
const maxTitleTokens = 3

// Readback renders v as the aepgate/readback check run on the merge SHA:
// in_progress while waiting (the title names the awaited workflows),
// success when verified, failure with every refusal token otherwise. The
// summary lists the runs that prove each side and each refusal with what
// was expected and seen.
func Readback(v ReadbackView) Run {
	r := Run{Name: NameReadback, HeadSHA: v.MergeSHA}
	var b strings.Builder
	switch v.State {
	case ReadbackWaiting:
		r.Status = StatusInProgress
		r.Title = "Waiting for " + strings.Join(v.Awaited, ", ") + " on " + v.Branch + " at " + gitsha.Short(v.MergeSHA)
		fmt.Fprintf(&b, "Pull request #%d merged as `%s`. Waiting for %s on `%s` at the merge SHA.\n\n", v.PR, v.MergeSHA, strings.Join(codes(v.Awaited), ", "), v.Branch)
	case ReadbackVerified:
		r.Conclusion = ConclusionSuccess
		r.Title = "Verified on " + v.Branch + " at " + gitsha.Short(v.MergeSHA)
		fmt.Fprintf(&b, "Pull request #%d merged as `%s`: the audited head `%s` reached `%s` unchanged, and every required workflow succeeded there in runs distinct from the pull request's.\n\n", v.PR, v.MergeSHA, v.AuditedSHA, v.Branch)
	default:
		r.Conclusion = ConclusionFailure
		r.Title = "Failed: " + titleTokens(v.refusals())
		fmt.Fprintf(&b, "Pull request #%d merged as `%s`; readback on `%s` is refused.\n\n", v.PR, v.MergeSHA, v.Branch)
	}
	fmt.Fprintf(&b, "- Head unchanged: %s\n", yesNo(v.Result.HeadUnchanged))
	fmt.Fprintf(&b, "- Pull request CI runs at `%s`: %s\n", v.AuditedSHA, runList(v.Result.RequiredCiRuns))
	fmt.Fprintf(&b, "- Readback runs at `%s`: %s\n", v.MergeSHA, runList(v.Result.MergedMainRuns))
	if rs := v.refusals(); len(rs) > 0 {
		b.WriteString("\n")
		var rows [][]string
		for _, x := range rs {
			rows = append(rows, []string{code(x.Token), x.Expected, x.Seen})
		}
		head := "Refusal"
		if v.State == ReadbackWaiting {
			head = "Not yet"
		}
		table(&b, []string{head, "Expected", "Seen"}, rows)
	}
	for i, n := range v.Notes {
		if i == 0 {
			b.WriteString("\n")
		}
		b.WriteString(n + "\n")
	}
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}

// refusals are protocol/readbackrules's refusals and the App's, in that order.
func (v ReadbackView) refusals() []refusal.Refusal {
	return append(append([]refusal.Refusal(nil), v.Result.Refusals...), v.Extra...)
}

// titleTokens names the first few distinct tokens and how many more.
func titleTokens(rs []refusal.Refusal) string {
	t := refusal.Tokens(rs)
	if len(t) == 0 {
		return "no reason given"
	}
	if len(t) <= maxTitleTokens {
		return strings.Join(t, ", ")
	}
	return strings.Join(t[:maxTitleTokens], ", ") + " and " + strconv.Itoa(len(t)-maxTitleTokens) + " more"
}

func runList(runs []readbackrules.Run) string {
	if len(runs) == 0 {
		return "none proven"
	}
	var out []string
	for _, r := range runs {
		out = append(out, fmt.Sprintf("%s %d", r.Workflow, r.ID))
	}
	return strings.Join(out, ", ")
}

func codes(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "not proven"
}
