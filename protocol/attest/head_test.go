package attest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSignedHead(t *testing.T) {
	key, other := edSigner(t, 1), edSigner(t, 2)
	h := Head{Seq: 42, Hash: strings.Repeat("ab", 32)}
	env, err := SignHead(key, h)
	if err != nil {
		t.Fatal(err)
	}
	raw := marshal(t, env)
	got, kid, err := VerifyHead(raw, ring(key))
	if err != nil || kid != key.KeyID() {
		t.Fatalf("VerifyHead = %v, %s, %v", got, kid, err)
	}
	if diff := cmp.Diff(h, got); diff != "" {
		t.Errorf("head (-want +got):\n%s", diff)
	}
	rewritten := editPayload(t, raw, func(p string) string { return strings.Replace(p, `"seq":42`, `"seq":41`, 1) })
	otherType, err := Sign(key, "application/json", env.Payload)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		raw   []byte
		ring  Keyring
		token string
		drop  string
	}{
		{"a head rewritten after signing", rewritten, ring(key), TokenBadSignature, "ruleSignature"},
		{"a head signed by a revoked key", raw, Keyring{revoked(key)}, TokenRevokedKey, "ruleNotRevoked"},
		{"bytes the key signed as another payload type", marshal(t, otherType), ring(key), TokenPayloadType, "rulePayloadType"},
		{"a head signed by an unknown key", raw, ring(other), TokenUnknownKey, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := VerifyHead(tt.raw, tt.ring)
			var r *Refused
			if !errors.As(err, &r) || r.Token != tt.token {
				t.Fatalf("VerifyHead = %v, want %s", err, tt.token)
			}
			if tt.drop == "" {
				// Negative control: trusting the signer's key lets it pass.
				if _, _, err := VerifyHead(tt.raw, ring(key)); err != nil {
					t.Errorf("negative control: %v", err)
				}
				return
			}
			var rules []rule
			for _, r := range headRules() {
				if !strings.HasSuffix(funcName(r), "."+tt.drop) {
					rules = append(rules, r)
				}
			}
			if _, _, err := verifyHead(tt.raw, tt.ring, rules); err != nil {
				t.Errorf("negative control: with %s off the head is still refused: %v", tt.drop, err)
			}
		})
	}
	var p map[string]any
	_ = json.Unmarshal(env.Payload, &p)
	if p["type"] != HeadType {
		t.Errorf("payload %s", env.Payload)
	}
}
