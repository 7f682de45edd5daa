package certificate

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/refusal"
)

func TestCheckBinding(t *testing.T) {
	raw := encode(t, baseline())
	files := map[string][]byte{"wu-1-0123456789ab": raw}
	good := &Ref{CertificateID: "wu-1-0123456789ab", Fingerprint: FileFingerprint(raw)}
	want := Expectation{Project: "demo", WorkUnit: "wu-1", CandidateSha: shaA, StoryMerges: []string{shaM}}
	invalid := baseline()
	invalid["auditVerdict"] = "FAIL"
	otherProject := baseline()
	otherProject["project"] = "other"
	tests := []struct {
		name   string
		files  map[string][]byte
		ref    *Ref
		expect Expectation
		want   []string
	}{
		{"bound", files, good, want, []string{}},
		{"no ref", files, nil, want, []string{"certificate-ref-missing"}},
		{"malformed ref", files, &Ref{CertificateID: "../x", Fingerprint: "x"}, want, []string{"certificate-ref-malformed"}},
		{"one byte appended", map[string][]byte{good.CertificateID: append(append([]byte{}, raw...), '\n')}, good, want, []string{"certificate-binding-mismatch"}},
		{"missing file", map[string][]byte{}, good, want, []string{"certificate-binding-mismatch"}},
		{"invalid certificate not indexed", map[string][]byte{good.CertificateID: encode(t, invalid)}, &Ref{CertificateID: good.CertificateID, Fingerprint: FileFingerprint(encode(t, invalid))}, want, []string{"certificate-binding-mismatch"}},
		{"other project", map[string][]byte{good.CertificateID: encode(t, otherProject)}, &Ref{CertificateID: good.CertificateID, Fingerprint: FileFingerprint(encode(t, otherProject))}, want, []string{"certificate-binding-mismatch"}},
		{"other work unit", files, good, Expectation{Project: "demo", WorkUnit: "wu-2", CandidateSha: shaA, StoryMerges: []string{shaM}}, []string{"certificate-work-unit-mismatch"}},
		{"older candidate", files, good, Expectation{Project: "demo", WorkUnit: "wu-1", CandidateSha: shaB, StoryMerges: []string{shaM}}, []string{"certificate-candidate-mismatch"}},
		{"merge sha differs from the story", files, good, Expectation{Project: "demo", WorkUnit: "wu-1", CandidateSha: shaA, StoryMerges: []string{shaB}}, []string{"certificate-merge-sha-mismatch"}},
		{"two merged stories", files, good, Expectation{Project: "demo", WorkUnit: "wu-1", CandidateSha: shaA, StoryMerges: []string{shaM, shaB}}, []string{"merged-story-not-unique"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := refusal.Tokens(CheckBinding(tt.files, tt.ref, tt.expect))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
