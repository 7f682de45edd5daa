package checks

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/releaserules"
)

// ReleaseRun renders the aep/release-closure check run for a release
// closure verdict (craft-rules §2): success when closed, failure
// otherwise, with every refusal (token, what was expected, what was seen)
// and every GitHub read that failed. sha is the commit to attach the run to:
// the tag's commit when known.
func ReleaseRun(sha string, res releaserules.Result) Run {
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
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// AppReleaseExternalID keys the App's run for tag, so two tags on one
// commit keep one run each.
func AppReleaseExternalID(tag string) string { return "aepgate-release:" + tag }

// ReleaseInputs are what the App verified a release against.
type ReleaseInputs struct {
	// Manifest is the manifest's path; Assets the assets compared.
	Manifest string
	Assets   []string
	// ConfigFound is set when the default branch holds a usable
	// repository config (its release keys, or their defaults, apply);
	// clear when it holds none or a broken one (the defaults apply).
	ConfigFound bool
}

// AppReleaseRun renders the App's aepgate/release run: ReleaseRun's verdict
// on sha, the tagged commit, followed by what it was verified against. The
// App has no working directory, so the manifest on the default branch head
// is the local manifest.
func AppReleaseRun(sha string, res releaserules.Result, in ReleaseInputs) Run {
	r := ReleaseRun(sha, res)
	r.Name, r.ExternalID = NameAppRelease, AppReleaseExternalID(res.Tag)
	source := "the defaults (no usable `.github/aepgate.yml` on the default branch)"
	if in.ConfigFound {
		source = "`release` in `.github/aepgate.yml` on the default branch (defaults for keys it leaves out)"
	}
	assets := make([]string, 0, len(in.Assets))
	for _, a := range in.Assets {
		assets = append(assets, code(a))
	}
	if len(assets) == 0 {
		assets = append(assets, code(in.Manifest)+" (the manifest alone)")
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(r.Summary, DocsFooter(NameRelease)))
	b.WriteString("\n### Verified against\n\n")
	table(&b, []string{"Input", "Value"}, [][]string{
		{"Manifest", code(in.Manifest)},
		{"Assets", strings.Join(assets, ", ")},
		{"Local manifest", code(in.Manifest) + " on the default branch head"},
		{"Taken from", source},
	})
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}
