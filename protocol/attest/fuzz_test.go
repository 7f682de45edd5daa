package attest

import (
	"errors"
	"testing"
)

// FuzzVerify feeds arbitrary envelopes to Verify: it never panics, and
// whatever it accepts is signed by the trusted key and names its subject.
func FuzzVerify(f *testing.F) {
	s := edSigner(f, 1)
	good := envelopeJSON(f, s, canonicalOf(f, sampleCert()))
	f.Add(good)
	f.Add([]byte(`{"payloadType":"application/vnd.in-toto+json","payload":"e30=","signatures":[{"keyid":"","sig":""}]}`))
	f.Add([]byte(`[]`))
	r := ring(s)
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := Verify(raw, r, Want{})
		var ref *Refused
		if err != nil && !errors.As(err, &ref) {
			t.Fatalf("Verify error is not a refusal: %v", err)
		}
		if err == nil && (v.KeyID != s.KeyID() || v.SHA == "") {
			t.Fatalf("accepted %+v", v)
		}
	})
}
