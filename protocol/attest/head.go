package attest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// HeadPayloadType is the DSSE payload type of a signed ledger head.
const HeadPayloadType = "application/vnd.aepgate.ledger-head+json"

// HeadType is the type field of a ledger head payload.
const HeadType = "https://aepgate.dev/ledger-head/v1"

// TokenHeadMalformed refuses a signed head whose payload is not a ledger
// head.
const TokenHeadMalformed = "ledger-head-malformed"

// Head is the ledger's newest row: its sequence number and hash. Signed,
// it vouches for every row up to it, since each row's hash chains the one
// before.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// SignHead signs h: a DSSE envelope of type HeadPayloadType whose payload is
// the canonical JSON {"hash", "seq", "type": HeadType}.
func SignHead(s *Signer, h Head) (*Envelope, error) {
	var b bytes.Buffer
	err := canonical.Write(&b, map[string]any{"hash": h.Hash, "seq": json.Number(fmt.Sprint(h.Seq)), "type": HeadType})
	if err != nil {
		return nil, fmt.Errorf("sign ledger head: %w", err)
	}
	return Sign(s, HeadPayloadType, b.Bytes())
}

// VerifyHead checks a signed ledger head (its envelope's JSON) against
// ring: a signature by a known, unrevoked key over a ledger head payload.
// It returns the head and the key that signed it; a refusal is a *Refused.
func VerifyHead(raw []byte, ring Keyring) (Head, string, error) {
	return verifyHead(raw, ring, headRules())
}

// headRules are VerifyHead's checks; a negative-control test removes one.
func headRules() []rule {
	return []rule{ruleEnvelope, rulePayloadType, ruleSignature, ruleNotRevoked}
}

func verifyHead(raw []byte, ring Keyring, rules []rule) (Head, string, error) {
	v := &verification{raw: raw, ring: ring, payloadType: HeadPayloadType}
	if err := v.run(rules); err != nil {
		return Head{}, "", err
	}
	var p struct {
		Seq  int64  `json:"seq"`
		Hash string `json:"hash"`
		Type string `json:"type"`
	}
	if _, err := canonical.ParseObject(v.env.Payload, canonical.Options{RejectDuplicateKeys: true}); err != nil || json.Unmarshal(v.env.Payload, &p) != nil || p.Type != HeadType || p.Seq < 1 || !hex64(p.Hash) {
		return Head{}, "", &Refused{refusal.Refusal{Token: TokenHeadMalformed, Expected: `{"hash": <64 hex>, "seq": <n ≥ 1>, "type": "` + HeadType + `"}`, Seen: string(v.env.Payload)}}
	}
	id := ""
	if len(v.keys) > 0 {
		id = v.keys[0].ID
	}
	return Head{Seq: p.Seq, Hash: p.Hash}, id, nil
}

func hex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
