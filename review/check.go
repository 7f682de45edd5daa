package review

import (
	"slices"
)

// Checked is what CheckBundle verified: the bundle's identity and where
// each quote was found.
type Checked struct {
	BundleID string
	Quotes   map[Evidence]Location
}

// BundleRule is one rule of the frozen evidence bundle. Each of its checks
// is optional and returns why the evidence is refused, or "".
type BundleRule struct {
	Name string
	// Bundle judges the bundle as a whole, given the distinct cited paths
	// (sorted); a refusal here refuses the review without looking further.
	Bundle func(cited []string, b Bundle) string
	// File judges one cited file; f is nil when the bundle lacks it.
	File func(path string, f *File) string
	// Quote judges one quote in a file every File rule accepted; found
	// says whether Locate found it.
	Quote func(e Evidence, f *File, found bool) string
}

// CheckBundle checks a's evidence against b under DefaultBundleRules.
func CheckBundle(a *Audit, b Bundle) (Checked, Problems) {
	return CheckBundleWith(a, b, DefaultBundleRules())
}

// CheckBundleWith checks a's evidence against b under rules. Problems
// name the evidence entry, e.g. "$.findings[0].evidence[1].quote"; a
// bundle-wide refusal is at "$".
func CheckBundleWith(a *Audit, b Bundle, rules []BundleRule) (Checked, Problems) {
	c := Checked{BundleID: b.Identity(), Quotes: map[Evidence]Location{}}
	entries := a.Evidence()
	cited := make([]string, 0, len(entries))
	for _, e := range entries {
		cited = append(cited, e.Evidence.Path)
	}
	slices.Sort(cited)
	cited = slices.Compact(cited)
	if ps := bundleRefusals(rules, cited, b); len(ps) > 0 {
		return c, ps
	}
	var ps Problems
	files := map[string]*File{}
	for i := range b {
		files[b[i].Path] = &b[i]
	}
	bad := map[string]string{}
	for _, p := range cited {
		bad[p] = fileRefusal(rules, p, files[p])
	}
	for _, e := range entries {
		if why := bad[e.Evidence.Path]; why != "" {
			ps.add(e.Path+".path", "%s", why)
			continue
		}
		if why := c.quote(rules, e.Evidence, files[e.Evidence.Path]); why != "" {
			ps.add(e.Path+".quote", "%s", why)
		}
	}
	return c, ps
}

// bundleRefusals applies the rules that judge the bundle as a whole.
func bundleRefusals(rules []BundleRule, cited []string, b Bundle) Problems {
	var ps Problems
	for _, r := range rules {
		if r.Bundle != nil {
			if why := r.Bundle(cited, b); why != "" {
				ps.add("$", "%s", why)
			}
		}
	}
	return ps
}

func fileRefusal(rules []BundleRule, path string, f *File) string {
	for _, r := range rules {
		if r.File != nil {
			if why := r.File(path, f); why != "" {
				return why
			}
		}
	}
	return ""
}

// quote locates e in f, records where, and applies the Quote rules.
func (c Checked) quote(rules []BundleRule, e Evidence, f *File) string {
	var found bool
	if f != nil {
		var start, end int
		if start, end, found = Locate(f.Content, e.Quote); found {
			c.Quotes[e] = Location{Path: e.Path, StartLine: start, EndLine: end}
		}
	}
	for _, r := range rules {
		if r.Quote != nil {
			if why := r.Quote(e, f, found); why != "" {
				return why
			}
		}
	}
	return ""
}
