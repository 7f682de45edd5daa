package cli

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The refusals certificate fetch gives before it reads a certificate.
const (
	// tokenCertificateMissing: no check run named aepgate/certificate is on
	// the commit.
	tokenCertificateMissing = "certificate-missing"
	// tokenCertificateUntrusted: runs of that name are on the commit, but
	// none written by the named App.
	tokenCertificateUntrusted = "certificate-writer-untrusted"
)

// appIdentity is the App whose certificate runs are trusted: its numeric ID
// and/or its slug, each checked when set.
type appIdentity struct {
	id   int64
	slug string
}

// wrote reports whether r was written by the App: GitHub's app.id and
// app.slug on the run, never its name. An identity with neither set trusts
// nothing.
func (a appIdentity) wrote(r gh.CheckRunRecord) bool {
	if a.id == 0 && a.slug == "" {
		return false
	}
	return (a.id == 0 || r.AppID == a.id) && (a.slug == "" || r.AppSlug == a.slug)
}

// judgement is what certificate fetch decided: the run it read (nil when
// none was trusted), the canonical JSON it holds and every refusal.
type judgement struct {
	run       *gh.CheckRunRecord
	canonical []byte
	refusals  []refusal.Refusal
}

// judgeCertificate picks the newest run the App wrote (trusted decides
// which; the negative-control test passes one that trusts any run of the
// name) and checks it: the run as checks.VerifyCertificateRun does, the
// certificate as protocol/certificate does.
func judgeCertificate(runs []gh.CheckRunRecord, trusted func(gh.CheckRunRecord) bool) judgement {
	var pick *gh.CheckRunRecord
	for i := range runs {
		if trusted(runs[i]) && (pick == nil || runs[i].ID > pick.ID) {
			pick = &runs[i]
		}
	}
	switch {
	case len(runs) == 0:
		return judgement{refusals: []refusal.Refusal{{Token: tokenCertificateMissing,
			Expected: "a check run " + checks.NameCertificate + " on the commit, written by the aepgate App", Seen: "no check run of that name"}}}
	case pick == nil:
		return judgement{refusals: []refusal.Refusal{{Token: tokenCertificateUntrusted,
			Expected: "a check run " + checks.NameCertificate + " written by the App named with --app-id/--app-slug", Seen: "only runs by " + writers(runs)}}}
	}
	canonical, rs := checks.VerifyCertificateRun(asRun(*pick))
	if canonical != nil {
		rs = append(rs, certificate.Validate(canonical).Refusals...)
	}
	return judgement{run: pick, canonical: canonical, refusals: rs}
}

// asRun is the record as the checks package models a run.
func asRun(r gh.CheckRunRecord) checks.Run {
	return checks.Run{Name: r.Name, HeadSHA: r.HeadSHA, ExternalID: r.ExternalID, Status: checks.Status(r.Status),
		Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary}
}

// writers lists the distinct writers of runs, in order.
func writers(runs []gh.CheckRunRecord) string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		if w := writer(r); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return strings.Join(out, ", ")
}

// writer names the App that wrote r.
func writer(r gh.CheckRunRecord) string {
	slug := r.AppSlug
	if slug == "" {
		slug = "an unnamed App"
	}
	return fmt.Sprintf("%s (App ID %d)", slug, r.AppID)
}
