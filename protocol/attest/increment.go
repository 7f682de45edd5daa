package attest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The tokens of VerifyIncrement's refusals beside Verify's.
const (
	// TokenStoryEnvelopeMissing: a story's signed unit envelope that the
	// increment names by digest was not given.
	TokenStoryEnvelopeMissing = "story-envelope-missing"
	// TokenStoryEnvelopeUnreferenced: a given story envelope is none the
	// increment names.
	TokenStoryEnvelopeUnreferenced = "story-envelope-unreferenced"
	// TokenStoryEnvelopeInvalid: a story envelope is unreadable or does not
	// verify as a unit certificate about the story's merge commit.
	TokenStoryEnvelopeInvalid = "story-envelope-invalid"
	// TokenStoryEnvelopeMismatch: a story envelope verifies but certifies
	// another unit or another certificate than the increment names.
	TokenStoryEnvelopeMismatch = "story-envelope-certificate-mismatch"
)

// EnvelopeDigest is the lowercase hex SHA-256 of a DSSE envelope (or of
// the one a Sigstore bundle holds) in the form the App publishes it:
// {"payloadType","payload","signatures":[{"keyid","sig"}]} on one line,
// payload and signatures in standard padded base64. An envelope saved
// with other whitespace or base64 padding has the same digest; a changed
// payload, type, key ID or signature byte has another.
func EnvelopeDigest(raw []byte) (string, error) {
	var env Envelope
	if err := json.Unmarshal(Unbundle(raw), &env); err != nil {
		return "", fmt.Errorf("envelope digest: %w", err)
	}
	if len(env.Signatures) == 0 {
		return "", errors.New("envelope digest: the envelope has no signature")
	}
	b, err := json.Marshal(&env)
	if err != nil {
		return "", fmt.Errorf("envelope digest: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// VerifiedStory is one story envelope VerifyIncrement checked: the unit,
// its merge commit, the envelope's digest and the key that signed it.
type VerifiedStory struct {
	Unit           int    `json:"unit"`
	MergeSha       string `json:"mergeSha"`
	EnvelopeSha256 string `json:"envelopeSha256"`
	KeyID          string `json:"keyId"`
}

// VerifiedIncrement is what a verified increment envelope attests: as
// Verified (the certificate being the increment certificate), with the
// story envelopes it names, each verified.
type VerifiedIncrement struct {
	Verified
	Stories []VerifiedStory
}

// VerifyIncrement checks a signed increment certificate (its envelope's
// JSON, or a bundle's) offline against ring as Verify checks a unit's —
// signature, statement, predicate type IncrementPredicateType, subject the
// certificate's integratedSha (and want.SHA when set), the certificate
// valid under protocol/incrementrules — and then the stories: every story the
// certificate names with an envelopeSha256 must be among stories (each a
// unit envelope or bundle) by that digest and verify with Verify against
// the same ring, about the story's merge commit, its certificate being the
// story's unit with the certificateSha256 named; a given envelope the
// certificate does not name is refused too. The first rule broken is
// returned as a *Refused.
func VerifyIncrement(raw []byte, ring Keyring, want Want, stories [][]byte) (*VerifiedIncrement, error) {
	return verifyIncrement(raw, ring, want, stories, incrementRules())
}

// incrementRules are VerifyIncrement's checks in order; the
// negative-control tests remove one.
func incrementRules() []rule {
	return append(allRules(), ruleStories)
}

func verifyIncrement(raw []byte, ring Keyring, want Want, stories [][]byte, rules []rule) (*VerifiedIncrement, error) {
	v := &verification{raw: raw, ring: ring, want: want, payloadType: PayloadType, kind: Increment, stories: stories}
	if err := v.run(rules); err != nil {
		return nil, err
	}
	return &VerifiedIncrement{Verified: *v.verified(), Stories: v.verifiedStories}, nil
}

// ruleIncrementCertificate refuses a signed increment certificate that
// breaks protocol/incrementrules's rules, and keeps it for ruleStories.
func ruleIncrementCertificate(v *verification) *refusal.Refusal {
	c, rs := incrementrules.Validate(v.cert)
	if len(rs) > 0 {
		return refuse(TokenCertificateInvalid, "an increment certificate that protocol/incrementrules validates", strings.Join(refusal.Tokens(rs), ", "))
	}
	v.incr = &c
	return nil
}

// ruleStories checks the story envelopes the increment names by digest
// (see VerifyIncrement): the increment's signature vouches for the
// digests, each story envelope's own signature for its certificate.
func ruleStories(v *verification) *refusal.Refusal {
	if v.incr == nil {
		return refuse(TokenCertificateInvalid, "an increment certificate", "none read")
	}
	given, f := digests(v.stories)
	if f != nil {
		return f
	}
	used := map[string]bool{}
	for _, s := range v.incr.Stories {
		if s.EnvelopeSha256 == "" {
			continue
		}
		raw, ok := given[s.EnvelopeSha256]
		if !ok {
			return refuse(TokenStoryEnvelopeMissing, fmt.Sprintf("the signed certificate envelope of unit #%d (merge commit %s) with sha256 %s; fetch it with `aepgate certificate fetch --sha %s --attestation`", s.Unit, s.MergeSha, s.EnvelopeSha256, s.MergeSha),
				fmt.Sprintf("none of the %d story envelopes given has that digest", len(v.stories)))
		}
		used[s.EnvelopeSha256] = true
		vs, f := verifyStory(v.ring, v.incr.Repository, s, raw)
		if f != nil {
			return f
		}
		v.verifiedStories = append(v.verifiedStories, vs)
	}
	for d := range given {
		if !used[d] {
			return refuse(TokenStoryEnvelopeUnreferenced, "only story envelopes the increment certificate names (envelopeSha256 of its stories)", "an envelope with sha256 "+d)
		}
	}
	return nil
}

// digests maps each given story envelope's digest to its bytes.
func digests(stories [][]byte) (map[string][]byte, *refusal.Refusal) {
	out := map[string][]byte{}
	for i, raw := range stories {
		d, err := EnvelopeDigest(raw)
		if err != nil {
			return nil, refuse(TokenStoryEnvelopeInvalid, "each story file one signed DSSE envelope or Sigstore bundle", fmt.Sprintf("story envelope %d: %v", i+1, err))
		}
		out[d] = Unbundle(raw)
	}
	return out, nil
}

// verifyStory verifies one story's unit envelope and that it certifies
// what the increment names for the story, in the increment's repository.
func verifyStory(ring Keyring, repository string, s incrementrules.CertStory, raw []byte) (VerifiedStory, *refusal.Refusal) {
	got, err := Verify(raw, ring, Want{SHA: s.MergeSha, Repository: repository})
	if err != nil {
		return VerifiedStory{}, refuse(TokenStoryEnvelopeInvalid, fmt.Sprintf("unit #%d's envelope verifying as its certificate about %s", s.Unit, s.MergeSha), err)
	}
	var unit struct {
		WorkUnit string `json:"workUnit"`
	}
	if json.Unmarshal(got.Certificate, &unit) != nil || unit.WorkUnit != strconv.Itoa(s.Unit) || got.Fingerprint != s.CertificateSha256 {
		return VerifiedStory{}, refuse(TokenStoryEnvelopeMismatch, fmt.Sprintf("the certificate of unit #%d with sha256 %s", s.Unit, s.CertificateSha256),
			fmt.Sprintf("the certificate of unit %q with sha256 %s", unit.WorkUnit, got.Fingerprint))
	}
	return VerifiedStory{Unit: s.Unit, MergeSha: s.MergeSha, EnvelopeSha256: s.EnvelopeSha256, KeyID: got.KeyID}, nil
}

// StatementPredicateType is the predicate type an envelope (or bundle)
// claims, read without verifying anything: it only chooses between Verify
// and VerifyIncrement, each of which checks it again under the signature.
// It is "" when the envelope or its statement cannot be read.
func StatementPredicateType(raw []byte) string {
	var env Envelope
	if json.Unmarshal(Unbundle(raw), &env) != nil {
		return ""
	}
	var st struct {
		PredicateType string `json:"predicateType"`
	}
	if json.Unmarshal(env.Payload, &st) != nil {
		return ""
	}
	return st.PredicateType
}
