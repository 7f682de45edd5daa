package attest

// OpenStatement checks a DSSE envelope (its JSON) against ring the way
// VerifyHead checks a ledger head's (one envelope, the in-toto payload
// type, a signature by a known key that is not revoked) and returns the
// signed payload and the key that signed it, for statements whose
// predicate another package checks (protocol/sourceattest). A refusal is a
// *Refused.
func OpenStatement(raw []byte, ring Keyring) ([]byte, string, error) {
	v := &verification{raw: raw, ring: ring, payloadType: PayloadType}
	if err := v.run(headRules()); err != nil {
		return nil, "", err
	}
	id := ""
	if len(v.keys) > 0 {
		id = v.keys[0].ID
	}
	return v.env.Payload, id, nil
}
