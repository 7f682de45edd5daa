package increment

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

type attester struct {
	bundles [][]byte
	err     error
}

func (a *attester) CreateAttestation(_ context.Context, _, _ string, bundle []byte) (int64, error) {
	a.bundles = append(a.bundles, bundle)
	return 1, a.err
}

func completeVerdict(t *testing.T) incrementrules.Verdict {
	t.Helper()
	sha := strings.Repeat("3", 40)
	c := incrementrules.Certificate{SchemaVersion: incrementrules.SchemaVersion, Kind: incrementrules.Kind, Repository: "o/r", Milestone: 4, Title: "M1", RiskTier: "low",
		Stories: []incrementrules.CertStory{{Unit: 1, Risk: "low", MergeSha: sha}}, IntegratedSha: sha,
		ReadbackRunIds: []string{"900"}, ReadbackRuns: []certificate.Run{{ID: "900", Workflow: "ci"}}}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return incrementrules.Verdict{Milestone: 4, Stage: incrementrules.Complete, Tier: "low", Candidate: sha, Certificate: raw, SHA256: certificate.FileFingerprint(raw)}
}

// TestSignedKeepsTheEnvelopeOnAnUnchangedRun: an ECDSA signature differs
// each time, so the App keeps the envelope already on an unchanged
// certificate run (nothing to write or upload); on a new run it signs and
// the bundle is uploaded, a refused upload only logged. The negative
// control: without the existing run it signs again and the text differs.
func TestSignedKeepsTheEnvelopeOnAnUnchangedRun(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := attest.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	up := &attester{}
	j := &Judge{Signer: s, Attest: up, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	in := Input{Owner: "o", Repo: "r"}
	v := completeVerdict(t)
	first, bundle, err := j.signed(in, v, checks.Increment(v), nil)
	if err != nil || bundle == nil {
		t.Fatalf("signed: %v, bundle %v", err, bundle != nil)
	}
	env, err := checks.AttestationFromText(first.Text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := attest.VerifyIncrement(env, attest.Keyring{s.Public()}, attest.Want{SHA: v.Candidate}, nil); err != nil {
		t.Fatalf("the signed envelope does not verify: %v", err)
	}
	j.upload(context.Background(), in, v, bundle)
	up.err = errors.New("403")
	j.upload(context.Background(), in, v, bundle)
	if len(up.bundles) != 2 {
		t.Errorf("%d uploads, want 2", len(up.bundles))
	}
	existing := snapshot.ExistingRun{Name: first.Name, Status: "completed", Conclusion: string(first.Conclusion), Title: first.Title,
		Summary: first.Summary, Text: first.Text, ExternalID: first.ExternalID}
	again, bundle, err := j.signed(in, v, checks.Increment(v), &existing)
	if err != nil || bundle != nil || !checks.Unchanged(existing, again) {
		t.Errorf("an unchanged certificate run was signed again: err %v, bundle %v, unchanged %v", err, bundle != nil, checks.Unchanged(existing, again))
	}
	control, _, _ := j.signed(in, v, checks.Increment(v), nil)
	if checks.Unchanged(existing, control) {
		t.Error("negative control: signing again gave the same text (ECDSA signatures differ)")
	}
	unsigned, bundle, err := (&Judge{}).signed(in, v, checks.Increment(v), nil)
	if err != nil || bundle != nil || unsigned.Text != "" {
		t.Errorf("without a signer: text %q, bundle %v, err %v", unsigned.Text, bundle != nil, err)
	}
}
