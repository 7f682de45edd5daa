package certificate

import (
	"regexp"
	"sync"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// Ref binds a completion to one certificate file: its id (the file stem)
// and the SHA-256 of its bytes (craft-rules §1.5).
type Ref struct {
	CertificateID string `json:"certificateId"`
	Fingerprint   string `json:"fingerprint"`
}

// Expectation is what the consuming completion says about the work: the
// project, the integrated candidate's unit and SHA, and the merge SHA of
// each merged story (exactly one may carry one).
type Expectation struct {
	Project      string
	WorkUnit     string
	CandidateSha string
	StoryMerges  []string
}

var (
	certID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`) })
	hex64  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })
)

// CheckBinding checks a completion's certificate binding against the
// project's certificate files (stem → raw bytes): the ref must be well
// formed; the file must exist, belong to the project, pass Validate and
// hash to the fingerprint (so a missing, invalid or byte-mutated file is
// refused); and it must certify this unit, this candidate and the one
// merged story's merge SHA (so a stale or cross-unit certificate is
// refused). A nil ref is refused: strict completion requires one.
func CheckBinding(files map[string][]byte, ref *Ref, want Expectation) []refusal.Refusal {
	if ref == nil {
		return []refusal.Refusal{{Token: "certificate-ref-missing", Expected: "a certificateRef: strict completion requires a consumed completion certificate", Seen: "none"}}
	}
	if !certID().MatchString(ref.CertificateID) || !hex64().MatchString(ref.Fingerprint) {
		return []refusal.Refusal{{Token: "certificate-ref-malformed", Expected: "certificateId [A-Za-z0-9._-]{1,128} and a 64-hex fingerprint", Seen: show(map[string]any{"certificateId": ref.CertificateID, "fingerprint": ref.Fingerprint})}}
	}
	raw, ok := files[ref.CertificateID]
	res := Validate(raw)
	if !ok || !res.Valid || res.Certificate["project"] != want.Project || FileFingerprint(raw) != ref.Fingerprint {
		return []refusal.Refusal{{Token: "certificate-binding-mismatch", Expected: "certificate " + ref.CertificateID + " of project " + want.Project + ", valid, with fingerprint " + ref.Fingerprint,
			Seen: "missing, invalid, or immutable binding mismatched"}}
	}
	return matchWork(res.Certificate, want)
}

func matchWork(c map[string]any, want Expectation) []refusal.Refusal {
	var out []refusal.Refusal
	if c["workUnit"] != want.WorkUnit {
		out = append(out, refusal.Refusal{Token: "certificate-work-unit-mismatch", Expected: "workUnit " + want.WorkUnit, Seen: show(c["workUnit"])})
	}
	if c["candidateSha"] != want.CandidateSha {
		out = append(out, refusal.Refusal{Token: "certificate-candidate-mismatch", Expected: "the exact candidateSha " + want.CandidateSha, Seen: show(c["candidateSha"])})
	}
	if len(want.StoryMerges) != 1 {
		out = append(out, refusal.Refusal{Token: "merged-story-not-unique", Expected: "exactly one story carrying mergeSha", Seen: show(len(want.StoryMerges))})
	} else if c["mergeSha"] != want.StoryMerges[0] {
		out = append(out, refusal.Refusal{Token: "certificate-merge-sha-mismatch", Expected: "mergeSha " + want.StoryMerges[0] + " of the merged story", Seen: show(c["mergeSha"])})
	}
	return out
}
