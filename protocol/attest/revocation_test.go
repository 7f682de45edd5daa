package attest

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// signedRevocations is cur's signed list revoking old's key.
func signedRevocations(t *testing.T, cur *Signer, rs Revocations) []byte {
	t.Helper()
	env, err := SignRevocations(cur, rs)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, env)
}

func TestRevocationsRoundTrip(t *testing.T) {
	cur, old := edSigner(t, 1), edSigner(t, 2)
	rs := Revocations{revocationOf(old)}
	raw := signedRevocations(t, cur, rs)
	golden.Check(t, filepath.Join("testdata", "revocations.golden.json"), append(raw, '\n'))
	got, kid, err := VerifyRevocations(raw, ring(cur))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rs, got); diff != "" || kid != cur.KeyID() {
		t.Errorf("VerifyRevocations (-want +got):\n%s\nkey %s, want %s", diff, kid, cur.KeyID())
	}
	empty, _, err := VerifyRevocations(signedRevocations(t, cur, Revocations{}), ring(cur))
	if err != nil || len(empty) != 0 {
		t.Errorf("an empty list: %v, %v", empty, err)
	}
}

// revocationAttack is a signed revocation list VerifyRevocations must
// refuse, and its negative control: with rule drop removed it passes.
type revocationAttack struct {
	name  string
	raw   []byte
	ring  Keyring
	token string
	drop  string
}

func revocationAttacks(t *testing.T) []revocationAttack {
	cur, old, stranger := edSigner(t, 1), edSigner(t, 2), edSigner(t, 3)
	good := signedRevocations(t, cur, Revocations{revocationOf(old)})
	selfRevoking, err := Sign(cur, RevocationsPayloadType, []byte(`{"revocations":[{"keyId":"`+cur.KeyID()+`","reason":"x","revokedAt":"2026-12-01T00:00:00Z"}],"type":"`+RevocationsType+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	untyped, err := Sign(cur, RevocationsPayloadType, []byte(`{"revocations":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	return []revocationAttack{
		{name: "an entry removed from the signed list", raw: editPayload(t, good, func(p string) string {
			return `{"revocations":[],"type":"` + RevocationsType + `"}`
		}), ring: ring(cur), token: TokenBadSignature, drop: "ruleSignature"},
		{name: "a reason changed", raw: editPayload(t, good, func(p string) string { return strings.Replace(p, "stolen", "found", 1) }),
			ring: ring(cur), token: TokenBadSignature, drop: "ruleSignature"},
		{name: "a list signed by a key the verifier does not trust", raw: signedRevocations(t, stranger, Revocations{}),
			ring: ring(cur), token: TokenUnknownKey, drop: "ruleSignature"},
		{name: "a list signed by a key the verifier knows revoked", raw: good,
			ring: Keyring{revoked(cur)}, token: TokenRevokedKey, drop: "ruleNotRevoked"},
		{name: "a list revoking its own signer", raw: marshal(t, selfRevoking),
			ring: ring(cur), token: TokenRevocationsMalformed, drop: "ruleRevocationList"},
		{name: "a list without its type", raw: marshal(t, untyped),
			ring: ring(cur), token: TokenRevocationsMalformed, drop: "ruleRevocationList"},
		{name: "a list's bytes signed as another payload type", raw: signPayload(t, cur, []byte(`{"revocations":[],"type":"`+RevocationsType+`"}`)),
			ring: ring(cur), token: TokenPayloadType, drop: "rulePayloadType"},
	}
}

func TestVerifyRevocationsRefusesTampering(t *testing.T) {
	for _, a := range revocationAttacks(t) {
		t.Run(a.name, func(t *testing.T) {
			_, _, err := VerifyRevocations(a.raw, a.ring)
			var r *Refused
			if !errors.As(err, &r) || r.Token != a.token {
				t.Errorf("VerifyRevocations = %v, want token %s", err, a.token)
			}
		})
	}
}

// TestVerifyRevocationsNegativeControl runs each attack with the rule
// behind its refusal removed: the tampered list is then accepted.
func TestVerifyRevocationsNegativeControl(t *testing.T) {
	for _, a := range revocationAttacks(t) {
		t.Run(a.name, func(t *testing.T) {
			rules := withoutIn(revocationRules(), a.drop)
			if _, _, err := verifyRevocations(a.raw, a.ring, rules); err != nil {
				t.Errorf("with %s off the list is still refused: %v", a.drop, err)
			}
		})
	}
}

func TestParseRevocationsRefuses(t *testing.T) {
	id := edSigner(t, 2).KeyID()
	tests := []struct {
		name, raw, want string
	}{
		{"not a list", `[]`, "revocations:"},
		{"no array", `{}`, `no "revocations" array`},
		{"unknown member", `{"revocations":[],"keys":[]}`, "unknown field"},
		{"not a key ID", `{"revocations":[{"keyId":"k1","revokedAt":"2026-12-01T00:00:00Z","reason":"r"}]}`, "is not a key ID"},
		{"no date", `{"revocations":[{"keyId":"` + id + `","reason":"r"}]}`, "not an RFC 3339 time"},
		{"a date without time", `{"revocations":[{"keyId":"` + id + `","revokedAt":"2026-12-01","reason":"r"}]}`, "not an RFC 3339 time"},
		{"no reason", `{"revocations":[{"keyId":"` + id + `","revokedAt":"2026-12-01T00:00:00Z","reason":" "}]}`, "no reason"},
		{"twice", `{"revocations":[{"keyId":"` + id + `","revokedAt":"2026-12-01T00:00:00Z","reason":"r"},{"keyId":"` + id + `","revokedAt":"2026-12-02T00:00:00Z","reason":"r"}]}`, "listed twice"},
		{"trailing data", `{"revocations":[]} {}`, "data after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRevocations([]byte(tt.raw))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseRevocations = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSignRevocationsRefusesItsOwnKey(t *testing.T) {
	cur := edSigner(t, 1)
	if _, err := SignRevocations(cur, Revocations{revocationOf(cur)}); err == nil || !strings.Contains(err.Error(), "itself revoked") {
		t.Errorf("SignRevocations = %v, want a refusal", err)
	}
}
