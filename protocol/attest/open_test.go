package attest

import (
	"bytes"
	"errors"
	"testing"
)

// TestOpenStatement: the envelope checks alone, for statements another
// package reads; a ledger head's envelope (another payload type), an
// unknown key and a revoked key are refused.
func TestOpenStatement(t *testing.T) {
	s := edSigner(t, 1)
	payload := []byte(`{"_type":"https://in-toto.io/Statement/v1"}`)
	env, err := Sign(s, PayloadType, payload)
	if err != nil {
		t.Fatal(err)
	}
	raw := marshal(t, env)
	got, id, err := OpenStatement(raw, Keyring{s.Public()})
	if err != nil || !bytes.Equal(got, payload) || id != s.KeyID() {
		t.Fatalf("OpenStatement = %q, %q, %v", got, id, err)
	}
	head, err := SignHead(s, Head{Seq: 1, Hash: string(bytes.Repeat([]byte("a"), 64))})
	if err != nil {
		t.Fatal(err)
	}
	revoked := s.Public()
	revoked.Revocation = &Revocation{KeyID: revoked.ID, RevokedAt: "2026-12-01T09:30:00Z", Reason: "test: key leaked"}
	tests := []struct {
		name  string
		raw   []byte
		ring  Keyring
		token string
	}{
		{"ledger head", marshal(t, head), Keyring{s.Public()}, TokenPayloadType},
		{"unknown key", raw, Keyring{edSigner(t, 2).Public()}, TokenUnknownKey},
		{"revoked key", raw, Keyring{revoked}, TokenRevokedKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := OpenStatement(tt.raw, tt.ring)
			var r *Refused
			if !errors.As(err, &r) || r.Token != tt.token {
				t.Fatalf("err = %v, want %s", err, tt.token)
			}
		})
	}
}
