package checks

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/release"
)

// ReleaseRun renders the aep/release-closure check run for a release
// closure verdict (craft-rules §2): success when closed, failure
// otherwise, with every refusal (token, what was expected, what was seen)
// and every GitHub read that failed. sha is the commit to attach the run to:
// the tag's commit when known.
func ReleaseRun(sha string, res release.Result) Run {
	r := Run{Name: NameRelease, HeadSHA: sha, ExternalID: ActionExternalID(NameRelease, sha)}
	if res.Closed {
		r.Conclusion, r.Title = ConclusionSuccess, "release "+res.Tag+" is closed"
	} else {
		r.Conclusion = ConclusionFailure
		r.Title = "release " + res.Tag + " is not closed: " + plural(len(res.Errors), "refusal", "refusals")
	}
	var b strings.Builder
	b.WriteString("## aepgate release closure\n\n")
	rows := [][]string{
		{"Repository", code(res.Repository)},
		{"Tag", code(res.Tag)},
		{"Tag commit", code(deref(res.TagSha))},
		{"Default branch head", code(deref(res.RemoteMainSha))},
	}
	table(&b, []string{"Field", "Value"}, rows)
	if len(res.Refusals) > 0 {
		b.WriteString("\n### Refusals\n\n")
		rows := make([][]string, 0, len(res.Refusals))
		for _, rf := range res.Refusals {
			rows = append(rows, []string{code(rf.Token), rf.Expected, rf.Seen})
		}
		table(&b, []string{"Token", "Expected", "Seen"}, rows)
	} else if len(res.Errors) > 0 {
		b.WriteString("\n### Refusals\n\n")
		for _, e := range res.Errors {
			b.WriteString("- " + code(e) + "\n")
		}
	}
	if len(res.Notes) > 0 {
		b.WriteString("\n### GitHub reads that failed\n\n")
		for _, n := range res.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	r.Summary = b.String()
	return r
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
