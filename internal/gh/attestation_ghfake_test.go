package gh_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestCreateAttestation(t *testing.T) {
	bundle := []byte(`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","verificationMaterial":{"publicKey":{"hint":"k"}},"dsseEnvelope":{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"k","sig":"AA=="}]}}`)
	tests := []struct {
		name      string
		perms     ghfake.Permissions
		forbidden bool
	}{
		{"attestations: write", ghfake.Permissions{"metadata": "read", "attestations": "write"}, false},
		{"without the permission", ghfake.Permissions{"metadata": "read", "checks": "write"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, repo, in, _ := installation(t, tt.perms)
			id, err := in.CreateAttestation(context.Background(), "acme", "widgets", bundle)
			if tt.forbidden {
				if !errors.Is(err, gh.ErrCheckForbidden) || len(repo.Attestations()) != 0 {
					t.Fatalf("CreateAttestation = %d, %v; want forbidden and nothing stored", id, err)
				}
				return
			}
			if err != nil || id == 0 {
				t.Fatalf("CreateAttestation = %d, %v", id, err)
			}
			got := repo.Attestations()
			var a, b any
			_ = json.Unmarshal(bundle, &a)
			if len(got) != 1 || json.Unmarshal(got[0], &b) != nil || !equalJSON(a, b) {
				t.Errorf("stored %s", got)
			}
		})
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
