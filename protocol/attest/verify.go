package attest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The tokens of Verify's refusals, one per way an envelope can fail.
const (
	TokenEnvelopeMalformed  = "envelope-malformed"
	TokenPayloadType        = "payload-type-mismatch"
	TokenSignatureMissing   = "signature-missing"
	TokenUnknownKey         = "signature-unknown-key"
	TokenBadSignature       = "signature-invalid"
	TokenRevokedKey         = "signature-revoked-key"
	TokenStatementMalformed = "statement-malformed"
	TokenStatementType      = "statement-type-mismatch"
	TokenPredicateType      = "predicate-type-mismatch"
	TokenSubjectCertificate = "subject-not-certificate"
	TokenSubjectSHA         = "subject-sha-mismatch"
	TokenCertificateInvalid = "certificate-invalid"
)

// Want is what the verifier expects beyond a valid signed certificate: the
// commit it must be about (empty: any commit the certificate names) and
// the repository (OWNER/NAME, compared without case; empty: any
// repository, which the caller should say it did not check).
type Want struct {
	SHA        string
	Repository string
}

// Verified is what a verified envelope attests: the key that signed it,
// the subject commit and the certificate (canonical JSON) with its SHA-256
// fingerprint, the one the check run's external_id carries.
type Verified struct {
	KeyID   string
	Subject Subject
	// Repository is the repository (OWNER/NAME) the subject and the
	// certificate both name.
	Repository  string
	SHA         string
	Certificate []byte
	Fingerprint string
}

// Refused is Verify's error for an envelope it does not accept.
type Refused struct{ refusal.Refusal }

// Error says which rule refused the envelope, what it expected and saw.
func (r *Refused) Error() string { return r.String() }

// verification is the state one Verify builds, rule by rule.
type verification struct {
	raw  []byte
	ring Keyring
	// payloadType is the DSSE payload type the envelope must have.
	payloadType string
	// kind is the certificate the statement must carry.
	kind Kind
	want Want
	// stories are the unit envelopes an increment statement is checked
	// against (VerifyIncrement); incr is its certificate once validated.
	stories         [][]byte
	incr            *incrementrules.Certificate
	verifiedStories []VerifiedStory
	env             Envelope
	keys            []PublicKey
	// revokedUnheld are the revoked keys, known by ID alone, that
	// signatures name; revocations is what ruleRevocationList read.
	revokedUnheld []PublicKey
	revocations   Revocations
	stmt          Statement
	sha           string
	repository    string
	cert          []byte
}

// run applies rules in order and returns the first refusal.
func (v *verification) run(rules []rule) error {
	for _, r := range rules {
		if f := r(v); f != nil {
			return &Refused{*f}
		}
	}
	return nil
}

// rule refuses the envelope or fills in more of v.
type rule func(v *verification) *refusal.Refusal

// allRules are Verify's checks in order: each may rely on the ones before.
// The negative-control tests verify with one removed to show the attack it
// stops then passes.
func allRules() []rule {
	return []rule{ruleEnvelope, rulePayloadType, ruleSignature, ruleNotRevoked, ruleStatement, ruleTypes, ruleSubjectIsCertificate, ruleSubjectWanted, ruleSubjectRepository, ruleRepositoryWanted, ruleCertificate}
}

// Verify checks a DSSE envelope (its JSON) offline against ring: a
// signature by a known key over the exact payload, the key not revoked
// (ring.Revoke); an in-toto Statement v1 with aepgate's predicate type and
// one git commit subject; that subject is the commit the certificate names
// (its mergeSha) and, when want.SHA is set, that commit; the subject's
// name names the repository the certificate's repository field names and,
// when want.Repository is set, that repository; and the certificate passes
// every rule of protocol/certificate. The first rule broken is returned as
// a *Refused.
func Verify(raw []byte, ring Keyring, want Want) (*Verified, error) {
	return verify(raw, ring, want, allRules())
}

func verify(raw []byte, ring Keyring, want Want, rules []rule) (*Verified, error) {
	v := &verification{raw: raw, ring: ring, want: want, payloadType: PayloadType, kind: Unit}
	if err := v.run(rules); err != nil {
		return nil, err
	}
	return v.verified(), nil
}

// verified is what v attests once every rule passed.
func (v *verification) verified() *Verified {
	out := &Verified{SHA: v.sha, Repository: v.repository, Certificate: v.cert, Fingerprint: certificate.FileFingerprint(v.cert)}
	if len(v.stmt.Subject) == 1 {
		out.Subject = v.stmt.Subject[0]
	}
	if len(v.keys) > 0 {
		out.KeyID = v.keys[0].ID
	}
	return out
}

func refuse(token, expected string, seen any) *refusal.Refusal {
	return &refusal.Refusal{Token: token, Expected: expected, Seen: fmt.Sprint(seen)}
}

func ruleEnvelope(v *verification) *refusal.Refusal {
	if err := json.Unmarshal(v.raw, &v.env); err != nil {
		return refuse(TokenEnvelopeMalformed, "one DSSE envelope as JSON {payloadType, payload, signatures}", err)
	}
	return nil
}

// rulePayloadType refuses a payload signed as anything but an in-toto
// statement: the type is signed too, so bytes signed for another purpose
// are never read as a statement.
func rulePayloadType(v *verification) *refusal.Refusal {
	if v.env.PayloadType != v.payloadType {
		return refuse(TokenPayloadType, "payloadType "+v.payloadType, v.env.PayloadType)
	}
	return nil
}

// ruleSignature accepts the signatures made by keys of the ring over the
// payload's PAE; a signature naming no key is tried with every key. A
// signature naming a revoked key the ring knows by its ID alone cannot be
// checked: when no other signature verifies, the envelope is refused as
// signed by that revoked key.
func ruleSignature(v *verification) *refusal.Refusal {
	if len(v.env.Signatures) == 0 {
		return refuse(TokenSignatureMissing, "at least one signature", "none")
	}
	msg := PAE(v.env.PayloadType, v.env.Payload)
	var known, unknown []string
	for _, s := range v.env.Signatures {
		cands := v.ring
		if s.KeyID != "" {
			k := v.ring.find(s.KeyID)
			switch {
			case k == nil:
				unknown = append(unknown, s.KeyID)
				continue
			case k.Key == nil:
				v.revokedUnheld = append(v.revokedUnheld, *k)
				continue
			}
			cands = Keyring{*k}
		}
		known = append(known, v.tryKeys(cands, msg, s.Sig)...)
	}
	switch {
	case len(v.keys) > 0:
		return nil
	case len(v.revokedUnheld) > 0:
		return refuse(TokenRevokedKey, "a signature by a key that is not revoked", revocations(v.revokedUnheld))
	case len(known) > 0:
		return refuse(TokenBadSignature, "a signature over this exact payload by key "+strings.Join(known, ", "), "a signature that does not verify: the payload or the signature was changed")
	default:
		return refuse(TokenUnknownKey, "a signature by one of the trusted keys "+strings.Join(ids(v.ring.Trusted()), ", "), "key "+strings.Join(unknown, ", "))
	}
}

// tryKeys verifies sig over msg with each candidate key until one does
// (kept in v.keys) and returns the IDs it tried; a revoked key known by
// ID alone cannot verify anything and is skipped.
func (v *verification) tryKeys(cands Keyring, msg, sig []byte) []string {
	var tried []string
	for _, k := range cands {
		if k.Key == nil {
			continue
		}
		tried = append(tried, k.ID)
		if verifySig(k.Key, msg, sig) {
			v.keys = append(v.keys, k)
			break
		}
	}
	return tried
}

// ruleNotRevoked refuses an envelope whose every good signature is by a
// revoked key, naming the revocation's date and reason.
func ruleNotRevoked(v *verification) *refusal.Refusal {
	var live []PublicKey
	for _, k := range v.keys {
		if k.Revocation == nil {
			live = append(live, k)
		}
	}
	if len(v.keys) > 0 && len(live) == 0 {
		return refuse(TokenRevokedKey, "a signature by a key that is not revoked", revocations(v.keys))
	}
	if len(live) > 0 {
		v.keys = live
	}
	return nil
}

// revocations describes the revoked keys' revocations.
func revocations(keys []PublicKey) string {
	var out []string
	for _, k := range keys {
		if k.Revocation != nil {
			out = append(out, k.Revocation.String())
		}
	}
	return "a signature by " + strings.Join(out, "; ")
}

func ids(keys []PublicKey) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k.ID)
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}
