package ghfake

import (
	"encoding/json"
	"net/http"
)

// attestation is one stored artifact attestation: its Sigstore bundle.
type attestation struct {
	id     int64
	bundle json.RawMessage
}

// attestationRoutes serves GitHub's "Create an attestation"
// (https://docs.github.com/en/rest/repos/attestations#create-an-attestation):
// POST /repos/{owner}/{repo}/attestations with {"bundle": {mediaType,
// verificationMaterial, dsseEnvelope}} answers 201 {"id": N}; the token
// needs attestations:write.
func (f *Fake) attestationRoutes() {
	f.handle("POST /repos/{owner}/{repo}/attestations", write("attestations"), func(c *call) (int, any) {
		var req struct {
			Bundle *struct {
				MediaType            string          `json:"mediaType"`
				VerificationMaterial json.RawMessage `json:"verificationMaterial"`
				DSSEEnvelope         json.RawMessage `json:"dsseEnvelope"`
			} `json:"bundle"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		if req.Bundle == nil {
			return invalid("Attestation", "bundle", "missing_field", "bundle is required")
		}
		if req.Bundle.MediaType == "" || len(req.Bundle.DSSEEnvelope) == 0 || len(req.Bundle.VerificationMaterial) == 0 {
			return invalid("Attestation", "bundle", "invalid", "bundle must have mediaType, verificationMaterial and dsseEnvelope")
		}
		var raw struct {
			Bundle json.RawMessage `json:"bundle"`
		}
		_ = json.Unmarshal(c.body, &raw)
		a := &attestation{id: c.f.nextID(), bundle: raw.Bundle}
		c.repo.attestations = append(c.repo.attestations, a)
		return http.StatusCreated, obj{"id": a.id}
	})
}

// Attestations returns the bundles stored for the repository, oldest first.
func (r *Repo) Attestations() []json.RawMessage {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	var out []json.RawMessage
	for _, a := range r.s.attestations {
		out = append(out, append(json.RawMessage(nil), a.bundle...))
	}
	return out
}
