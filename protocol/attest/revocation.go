package attest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// RevocationsPayloadType is the DSSE payload type of a signed revocation
// list.
const RevocationsPayloadType = "application/vnd.aepgate.revocations+json"

// RevocationsType is the type field of a revocation list payload.
const RevocationsType = "https://aepgate.dev/revocations/v1"

// TokenRevocationsMalformed refuses a signed revocation list whose payload
// is not a revocation list, or one that revokes the key that signed it.
const TokenRevocationsMalformed = "revocations-malformed"

// Revocation says that the key KeyID (its RFC 7638 thumbprint) must no
// longer be trusted: since RevokedAt (RFC 3339, UTC), for Reason.
type Revocation struct {
	KeyID     string `json:"keyId"`
	RevokedAt string `json:"revokedAt"`
	Reason    string `json:"reason"`
}

// String is the revocation as a refusal shows it.
func (r Revocation) String() string {
	at := r.RevokedAt
	if at == "" {
		at = "at an unknown date"
	} else {
		at = "on " + at
	}
	return "key " + r.KeyID + ", revoked " + at + ": " + r.Reason
}

// Revocations is a revocation list: the keys a publisher revoked, at most
// one entry per key.
type Revocations []Revocation

// revocationList is the JSON of a revocation list: the input file the App
// signs, and the payload of the signed list.
type revocationList struct {
	Type        string      `json:"type,omitempty"`
	Revocations Revocations `json:"revocations"`
}

var keyID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`) })

// ParseRevocations reads a revocation list {"revocations": [{keyId,
// revokedAt, reason}]}: each keyId a key ID (43 base64url characters, the
// thumbprint 'aepgate keys' prints as kid), revokedAt an RFC 3339 time,
// reason not blank, no key twice, no other member. It is the file an
// operator writes; the App publishes it signed (SignRevocations).
func ParseRevocations(raw []byte) (Revocations, error) {
	var list revocationList
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("revocations: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("revocations: data after the list")
	}
	if list.Revocations == nil {
		return nil, fmt.Errorf(`revocations: no "revocations" array`)
	}
	return list.Revocations, list.Revocations.check()
}

// check refuses an entry a verifier could not act on.
func (rs Revocations) check() error {
	seen := map[string]bool{}
	for i, r := range rs {
		switch _, err := time.Parse(time.RFC3339, r.RevokedAt); {
		case !keyID().MatchString(r.KeyID):
			return fmt.Errorf("revocations: entry %d: keyId %q is not a key ID (the key's RFC 7638 thumbprint, its kid)", i+1, r.KeyID)
		case err != nil:
			return fmt.Errorf("revocations: entry %d (key %s): revokedAt %q is not an RFC 3339 time such as 2026-12-01T00:00:00Z", i+1, r.KeyID, r.RevokedAt)
		case strings.TrimSpace(r.Reason) == "":
			return fmt.Errorf("revocations: entry %d (key %s): no reason", i+1, r.KeyID)
		case seen[r.KeyID]:
			return fmt.Errorf("revocations: key %s listed twice", r.KeyID)
		}
		seen[r.KeyID] = true
	}
	return nil
}

// Find returns the revocation of key id, or nil.
func (rs Revocations) Find(id string) *Revocation {
	for i := range rs {
		if rs[i].KeyID == id {
			return &rs[i]
		}
	}
	return nil
}

// SignRevocations signs rs with s: a DSSE envelope of type
// RevocationsPayloadType whose payload is the canonical JSON
// {"revocations": [{keyId, reason, revokedAt}…] (sorted by keyId), "type":
// RevocationsType}. A list that revokes s's own key is refused: its
// signature would vouch for nothing.
func SignRevocations(s *Signer, rs Revocations) (*Envelope, error) {
	if err := rs.check(); err != nil {
		return nil, fmt.Errorf("sign revocations: %w", err)
	}
	if r := rs.Find(s.KeyID()); r != nil {
		return nil, fmt.Errorf("sign revocations: the signing key is itself revoked (%s): sign with a key that is not", r)
	}
	sorted := slices.Clone(rs)
	slices.SortFunc(sorted, func(a, b Revocation) int { return strings.Compare(a.KeyID, b.KeyID) })
	entries := make([]any, 0, len(sorted))
	for _, r := range sorted {
		entries = append(entries, map[string]any{"keyId": r.KeyID, "reason": r.Reason, "revokedAt": r.RevokedAt})
	}
	var b bytes.Buffer
	if err := canonical.Write(&b, map[string]any{"revocations": entries, "type": RevocationsType}); err != nil {
		return nil, fmt.Errorf("sign revocations: %w", err)
	}
	return Sign(s, RevocationsPayloadType, b.Bytes())
}

// VerifyRevocations checks a signed revocation list (its envelope's JSON)
// against ring: a signature by a trusted key (ring.Revoke's marks apply)
// over a revocation list payload whose entries ParseRevocations accepts,
// and that does not revoke the key that signed it. It returns the list
// and the signing key's ID; a refusal is a *Refused.
func VerifyRevocations(raw []byte, ring Keyring) (Revocations, string, error) {
	return verifyRevocations(raw, ring, revocationRules())
}

// revocationRules are VerifyRevocations's checks; a negative-control test
// removes one.
func revocationRules() []rule {
	return []rule{ruleEnvelope, rulePayloadType, ruleSignature, ruleNotRevoked, ruleRevocationList}
}

func verifyRevocations(raw []byte, ring Keyring, rules []rule) (Revocations, string, error) {
	v := &verification{raw: raw, ring: ring, payloadType: RevocationsPayloadType}
	if err := v.run(rules); err != nil {
		return nil, "", err
	}
	id := ""
	if len(v.keys) > 0 {
		id = v.keys[0].ID
	}
	return v.revocations, id, nil
}

// ruleRevocationList reads the payload as a revocation list and refuses
// one that revokes its own signer.
func ruleRevocationList(v *verification) *refusal.Refusal {
	want := `{"revocations": [{"keyId", "reason", "revokedAt"}…], "type": "` + RevocationsType + `"}`
	if _, err := canonical.ParseObject(v.env.Payload, canonical.Options{RejectDuplicateKeys: true}); err != nil {
		return refuse(TokenRevocationsMalformed, want, err)
	}
	rs, err := ParseRevocations(v.env.Payload)
	if err != nil {
		return refuse(TokenRevocationsMalformed, want, err)
	}
	var list revocationList
	if json.Unmarshal(v.env.Payload, &list) != nil || list.Type != RevocationsType {
		return refuse(TokenRevocationsMalformed, want, "type "+quoted(list.Type))
	}
	for _, k := range v.keys {
		if r := rs.Find(k.ID); r != nil {
			return refuse(TokenRevocationsMalformed, "a list signed by a key it does not revoke", r)
		}
	}
	v.revocations = rs
	return nil
}

// Revoke returns a copy of r that knows the revocations rs: a key of r
// that rs revokes is marked (its signatures are refused as revoked, with
// the revocation's date and reason), and a revoked key r does not hold is
// added by its ID alone, so that a signature naming it is refused as
// revoked rather than as unknown. Revoked keys are never written to a
// JWKS (Keyring.JWKS).
func (r Keyring) Revoke(rs Revocations) Keyring {
	out := slices.Clone(r)
	for _, rev := range rs {
		if k := out.find(rev.KeyID); k != nil {
			if k.Revocation == nil {
				k.Revocation = &rev
			}
			continue
		}
		out = append(out, PublicKey{ID: rev.KeyID, Revocation: &rev})
	}
	return out
}

// Trusted returns the keys of r that are not revoked, in r's order: the
// keys a JWKS publishes.
func (r Keyring) Trusted() Keyring {
	out := Keyring{}
	for _, k := range r {
		if k.Revocation == nil && k.Key != nil {
			out = append(out, k)
		}
	}
	return out
}
