package sourceattest

import (
	"fmt"

	vsa "github.com/in-toto/attestation/go/predicates/vsa/v1"
	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// Want is what a verifier expects of a statement beyond a good signature:
// the repository (OWNER/REPO; empty: not checked, and Verified says so),
// the commit (empty: any), and for a VSA the levels it must name.
type Want = sourceverify.Want

// Verified is a statement that passed: the key that signed it, its
// subject commit, whether the repository was checked, and the statement.
type Verified struct {
	KeyID             string
	SHA               string
	RepositoryChecked bool
	Statement         *intoto.Statement
}

// VerifyVSA checks a VSA envelope (its JSON) against ring and want with
// protocol/sourceverify's rules (the signature, the statement, one subject
// naming want's commit of want's repository, and the policy: resourceUri
// the repository, verificationResult PASSED, every level want names, a
// verifier, a policy with a digest, inputs), then reads the statement and
// the predicate with in-toto's bindings (their Validate, unknown fields
// refused).
func VerifyVSA(raw []byte, ring attest.Keyring, want Want) (*Verified, *vsa.VerificationSummary, error) {
	v, _, err := open(raw, ring, want, VSAPredicateType)
	if err != nil {
		return nil, nil, err
	}
	var p vsa.VerificationSummary
	if err := predicate(v.Statement, &p); err != nil {
		return nil, nil, fmt.Errorf("vsa: %w", err)
	}
	return v, &p, nil
}

// VerifyCoverage checks a coverage envelope (its JSON) against ring and
// want like VerifyVSA; the predicate must name the repository and a class
// of identity or replay (the audited change merged unchanged).
func VerifyCoverage(raw []byte, ring attest.Keyring, want Want) (*Verified, *CoveragePredicate, error) {
	v, sv, err := open(raw, ring, want, CoveragePredicateType)
	if err != nil {
		return nil, nil, err
	}
	return v, sv.Coverage, nil
}

// open requires predicateType, verifies the envelope with
// protocol/sourceverify, and reads the statement with the bindings.
func open(raw []byte, ring attest.Keyring, want Want, predicateType string) (*Verified, *sourceverify.Verified, error) {
	if pt := attest.StatementPredicateType(raw); pt != predicateType {
		return nil, nil, fmt.Errorf("statement: predicateType %q, want %q", pt, predicateType)
	}
	sv, err := sourceverify.Verify(raw, ring, want)
	if err != nil {
		return nil, nil, err
	}
	payload, _, err := attest.OpenStatement(raw, ring)
	if err != nil {
		return nil, nil, err
	}
	st, err := ParseStatement(payload)
	if err != nil {
		return nil, nil, err
	}
	return &Verified{KeyID: sv.KeyID, SHA: sv.SHA, RepositoryChecked: sv.RepositoryChecked, Statement: st}, sv, nil
}

// predicate decodes the statement's predicate into a bindings message,
// unknown fields refused.
func predicate(st *intoto.Statement, into *vsa.VerificationSummary) error {
	b, err := protojson.Marshal(st.GetPredicate())
	if err != nil {
		return err
	}
	return protojson.Unmarshal(b, into)
}
