package attest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
)

// PayloadType is the DSSE payload type of an in-toto Statement.
const PayloadType = "application/vnd.in-toto+json"

// Envelope is a DSSE envelope: the payload (base64 in JSON), its type and
// the signatures over their pre-authentication encoding.
type Envelope struct {
	PayloadType string      `json:"payloadType"`
	Payload     []byte      `json:"payload"`
	Signatures  []Signature `json:"signatures"`
}

// Signature is one DSSE signature: the signing key's ID and the signature
// bytes (base64 in JSON).
type Signature struct {
	KeyID string `json:"keyid"`
	Sig   []byte `json:"sig"`
}

// PAE is DSSE's pre-authentication encoding of a payload and its type:
// "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in decimal.
// It is what the signatures sign.
func PAE(payloadType string, body []byte) []byte {
	out := make([]byte, 0, len(payloadType)+len(body)+32)
	out = append(out, "DSSEv1 "...)
	out = strconv.AppendInt(out, int64(len(payloadType)), 10)
	out = append(out, ' ')
	out = append(out, payloadType...)
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(len(body)), 10)
	out = append(out, ' ')
	return append(out, body...)
}

// Sign wraps payload of payloadType in an envelope signed by s.
func Sign(s *Signer, payloadType string, payload []byte) (*Envelope, error) {
	sig, err := s.sign(PAE(payloadType, payload))
	if err != nil {
		return nil, fmt.Errorf("dsse sign: %w", err)
	}
	return &Envelope{PayloadType: payloadType, Payload: payload, Signatures: []Signature{{KeyID: s.KeyID(), Sig: sig}}}, nil
}

// b64std decodes standard base64; DSSE writers differ on padding and some
// use the URL alphabet, so all four forms are read.
func b64std(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}

// envelopeWire is the envelope as JSON carries it.
type envelopeWire struct {
	PayloadType string `json:"payloadType"`
	Payload     string `json:"payload"`
	Signatures  []struct {
		KeyID string `json:"keyid"`
		Sig   string `json:"sig"`
	} `json:"signatures"`
}

// UnmarshalJSON reads an envelope whose payload and signatures are base64
// in either alphabet, with or without padding (DSSE allows each).
func (e *Envelope) UnmarshalJSON(raw []byte) error {
	var w envelopeWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	payload, err := b64std(w.Payload)
	if err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	out := Envelope{PayloadType: w.PayloadType, Payload: payload}
	for i, s := range w.Signatures {
		sig, err := b64std(s.Sig)
		if err != nil {
			return fmt.Errorf("signature %d: %w", i, err)
		}
		out.Signatures = append(out.Signatures, Signature{KeyID: s.KeyID, Sig: sig})
	}
	*e = out
	return nil
}
