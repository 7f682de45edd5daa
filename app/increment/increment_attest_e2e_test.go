package increment_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/attest"
)

// TestSignedIncrementCertificate: with a signing key the App publishes the
// increment certificate signed, as it does a unit's: aepgate/increment's
// text carries a DSSE envelope whose statement (predicate type
// IncrementPredicateType) is about the integrated commit and whose
// certificate names each story's signed unit envelope by the SHA-256 of
// the bytes on that story's aepgate/certificate run. It verifies offline
// (attest.VerifyIncrement, what `aepgate certificate verify` runs) against
// the keys the App serves, given the three story envelopes; without one of
// them, or against another App's keys, it is refused. A redelivery writes
// nothing: the envelope is not signed again.
func TestSignedIncrementCertificate(t *testing.T) {
	signer := appkit.Signer(t, 1)
	w := appkit.NewIncrementWorldWith(t, appkit.IncrementYAML, "", nil, func(o *app.Options) { o.Signer = signer })
	var merges []string
	for i := range 3 {
		merges = append(merges, w.Certified(t, i))
	}
	last := merges[2]
	cert, ok := w.Complete(t, last)
	if !ok {
		t.Fatalf("the increment is not complete: %+v", w.Increment(t, last))
	}
	run := w.Increment(t, last)
	env, err := checks.AttestationFromText(run.Text)
	if err != nil {
		t.Fatalf("increment run text: %v\n%s", err, run.Text)
	}
	var stories [][]byte
	for i, m := range merges {
		cr := appkit.NewestRunOn(w.Repo, m, checks.NameCertificate)
		if cr == nil {
			t.Fatalf("no certificate on story %d's merge %s", i, m)
		}
		unit, err := checks.AttestationFromText(cr.Text)
		if err != nil {
			t.Fatalf("story %d's certificate run is not signed: %v", i, err)
		}
		sum := sha256.Sum256(unit)
		if got := cert.Stories[i].EnvelopeSha256; got != hex.EncodeToString(sum[:]) {
			t.Errorf("story %d: envelopeSha256 %s, want the SHA-256 of its published envelope %x", i, got, sum)
		}
		stories = append(stories, unit)
	}
	keys := appkit.FetchJWKS(t, w.Base)
	v, err := attest.VerifyIncrement(env, keys, attest.Want{SHA: last}, stories)
	if err != nil {
		t.Fatalf("VerifyIncrement: %v", err)
	}
	if "sha256:"+v.Fingerprint != run.ExternalID || v.KeyID != signer.KeyID() || len(v.Stories) != 3 {
		t.Errorf("verified %+v; run external_id %s", v, run.ExternalID)
	}
	var r *attest.Refused
	if _, err := attest.VerifyIncrement(env, keys, attest.Want{SHA: last}, stories[1:]); !errors.As(err, &r) || r.Token != attest.TokenStoryEnvelopeMissing {
		t.Errorf("a story envelope missing: %v, want %s", err, attest.TokenStoryEnvelopeMissing)
	}
	if _, err := attest.VerifyIncrement(env, attest.Keyring{appkit.Signer(t, 2).Public()}, attest.Want{SHA: last}, stories); !errors.As(err, &r) || r.Token != attest.TokenUnknownKey {
		t.Errorf("another App's keys: %v, want %s", err, attest.TokenUnknownKey)
	}
	_, writes0 := appkit.APICalls(w.F.Stats())
	w.Redeliver(t, "workflow_run", "completed")
	w.Quiet(t)
	if _, writes := appkit.APICalls(w.F.Stats()); writes != writes0 {
		t.Errorf("a redelivery wrote %d times", writes-writes0)
	}
}

// TestUnsignedIncrementCertificate: without a signing key the increment
// certificate is published as before, with no envelope and no story
// envelope digests (the negative control of the test above: what is
// signed comes from the key, never from the run's name).
func TestUnsignedIncrementCertificate(t *testing.T) {
	w := newIncrementWorld(t, "", nil)
	last := w.CertifiedAll(t)
	cert, ok := w.Complete(t, last)
	if !ok {
		t.Fatalf("the increment is not complete: %+v", w.Increment(t, last))
	}
	if _, err := checks.AttestationFromText(w.Increment(t, last).Text); err == nil {
		t.Error("an unsigned App published an envelope")
	}
	for _, s := range cert.Stories {
		if s.EnvelopeSha256 != "" {
			t.Errorf("story %d names an envelope %s", s.Unit, s.EnvelopeSha256)
		}
	}
}
