package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// NameIncrement is the increment certificate on an increment's integrated
// commit (docs/increment.md): success with the certificate once the
// milestone is complete, else in progress or action required with what is
// missing.
const NameIncrement = "aepgate/increment"

// IncrementProgressID is the external_id of a milestone's increment run
// while it is not complete: one per milestone, so the run is updated in
// place until the certificate replaces it.
func IncrementProgressID(milestone int) string {
	return "aepgate-increment:milestone-" + strconv.Itoa(milestone)
}

// incrementHeading opens every increment certificate summary.
const incrementHeading = "## aepgate increment certificate\n\n"

// IncrementTitle is the title of the increment certificate run whose
// canonical JSON has the lowercase hex SHA-256 sum.
func IncrementTitle(sum string) string { return "increment certificate sha256:" + sum }

// Increment renders v as the aepgate/increment run on its candidate: the
// certificate when complete (IncrementCertificateRun), else in_progress —
// or action_required when a person must act — listing what is missing,
// the owner's accept command and the demonstration block to post.
func Increment(v incrementrules.Verdict) Run {
	if v.Complete() {
		return IncrementCertificateRun(v.Candidate, v.Certificate, v.SHA256)
	}
	r := Run{Name: NameIncrement, HeadSHA: v.Candidate, ExternalID: IncrementProgressID(v.Milestone), Status: StatusInProgress}
	if v.NeedsAction() {
		r.Status, r.Conclusion = StatusCompleted, ConclusionActionRequired
	}
	r.Title = fmt.Sprintf("Milestone %d %s: %s", v.Milestone, v.Stage, plural(len(v.Missing), "thing missing", "things missing"))
	var b strings.Builder
	fmt.Fprintf(&b, "Milestone %d is **%s** (risk tier %s); integrated candidate %s.\n\nMissing:\n\n", v.Milestone, v.Stage, v.Tier, code(v.Candidate))
	for _, m := range v.Missing {
		fmt.Fprintf(&b, "- %s (%s)\n", escapeInline(defuseAutolinks(oneLine(m.What, 1000))), code(m.Rule))
	}
	if v.AcceptCommand != "" && missingRule(v, "owner-acceptance") {
		b.WriteString("\nThe owner accepts this candidate with:\n\n")
		fenced(&b, "", v.AcceptCommand)
	}
	if v.DemoTemplate != "" {
		b.WriteString("\nThe demonstration block to post:\n\n")
		fenced(&b, "markdown", v.DemoTemplate)
	}
	for i, t := range v.Tampering {
		if i == 0 {
			b.WriteString("\n**Contract tampering** (the kept, stricter values count):\n\n")
		}
		fmt.Fprintf(&b, "- %s\n", escapeInline(defuseAutolinks(oneLine(t, 1000))))
	}
	r.Summary = b.String()
	return r
}

func missingRule(v incrementrules.Verdict, rule string) bool {
	for _, m := range v.Missing {
		if m.Rule == rule {
			return true
		}
	}
	return false
}

// IncrementCertificateRun renders the increment certificate on head, the
// integrated commit: conclusion success, title IncrementTitle(sum),
// external_id CertificateExternalID(sum), and a summary whose fenced json
// block is canonical, the summary's last line its closing fence
// (IncrementFromSummary reads it back).
func IncrementCertificateRun(head string, canonical []byte, sum string) Run {
	return Run{Name: NameIncrement, HeadSHA: head, ExternalID: CertificateExternalID(sum), Conclusion: ConclusionSuccess,
		Title: IncrementTitle(sum), Summary: incrementSummary(string(canonical), sum)}
}

func incrementSummary(body, sum string) string {
	return canonicalSummary(incrementHeading, "increment certificate", "--sha <this commit> --increment <milestone>", body, sum)
}

// IncrementFromSummary returns the canonical JSON an increment certificate
// run's summary holds and the SHA-256 its header names. It is strict: the
// summary must be exactly what IncrementCertificateRun renders for that
// block and sum.
func IncrementFromSummary(summary string) (body []byte, headerSum string, err error) {
	rest, ok := strings.CutPrefix(summary, incrementHeading)
	if !ok {
		return nil, "", fmt.Errorf("increment summary: does not start with the aepgate increment certificate heading")
	}
	_, afterSum, _ := strings.Cut(rest, "Its SHA-256 is `")
	headerSum, _, _ = strings.Cut(afterSum, "`")
	_, block, ok := strings.Cut(rest, "\n```json\n")
	text, ok2 := strings.CutSuffix(block, "\n```\n")
	if !ok || !ok2 || text == "" || strings.Contains(text, "\n") {
		return nil, "", fmt.Errorf("increment summary: no one-line json block closing it")
	}
	if want := incrementSummary(text, headerSum); summary != want {
		return nil, "", fmt.Errorf("increment summary: differs from the rendering of its json block (first difference at byte %d)", firstDiff(summary, want))
	}
	return []byte(text), headerSum, nil
}

// IncrementSuperseded renders an earlier aepgate/increment run on head
// (its external_id kept, so the publisher updates it) as no longer
// holding: conclusion neutral, saying what the milestone is now. A
// certificate run so rendered no longer verifies.
func IncrementSuperseded(head, externalID string, v incrementrules.Verdict) Run {
	return Run{Name: NameIncrement, HeadSHA: head, ExternalID: externalID, Conclusion: ConclusionNeutral,
		Title:   fmt.Sprintf("Superseded: milestone %d is %s", v.Milestone, v.Stage),
		Summary: fmt.Sprintf("This run no longer holds. Milestone %d is **%s** now; the current `%s` run on this commit says why.\n", v.Milestone, v.Stage, NameIncrement)}
}
