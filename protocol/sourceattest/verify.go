package sourceattest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	vsa "github.com/in-toto/attestation/go/predicates/vsa/v1"
	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/coverage"
)

// Want is what a verifier expects of a statement beyond a good signature:
// the repository (OWNER/REPO; empty: not checked, and Verified says so),
// the commit (empty: any), and for a VSA the levels it must name.
type Want struct {
	Repository string
	SHA        string
	Levels     []string
}

// Verified is a statement that passed: the key that signed it, its
// subject commit, whether the repository was checked, and the statement.
type Verified struct {
	KeyID             string
	SHA               string
	RepositoryChecked bool
	Statement         *intoto.Statement
}

// VerifyVSA checks a VSA envelope (its JSON) against ring and want: the
// signature (protocol/attest), the statement (the bindings' Validate), the
// predicate type, one subject naming want's commit of want's repository,
// and the policy: resourceUri the repository, verificationResult PASSED,
// every level want names, a verifier, a policy with a digest, inputs.
func VerifyVSA(raw []byte, ring attest.Keyring, want Want) (*Verified, *vsa.VerificationSummary, error) {
	v, err := open(raw, ring, want, VSAPredicateType)
	if err != nil {
		return nil, nil, err
	}
	var p vsa.VerificationSummary
	if err := predicate(v.Statement, &p); err != nil {
		return nil, nil, fmt.Errorf("vsa: %w", err)
	}
	if err := vsaPolicy(&p, want); err != nil {
		return nil, nil, fmt.Errorf("vsa: %w", err)
	}
	return v, &p, nil
}

// vsaPolicy checks the predicate's fields against want.
func vsaPolicy(p *vsa.VerificationSummary, want Want) error {
	if want.Repository != "" && p.GetResourceUri() != "git+"+RepositoryURI(want.Repository) {
		return fmt.Errorf("resourceUri %q, want %q", p.GetResourceUri(), "git+"+RepositoryURI(want.Repository))
	}
	if p.GetVerificationResult() != Passed {
		return fmt.Errorf("verificationResult %q, want %s", p.GetVerificationResult(), Passed)
	}
	for _, l := range want.Levels {
		if !slices.Contains(p.GetVerifiedLevels(), l) {
			return fmt.Errorf("verifiedLevels %v lack %s", p.GetVerifiedLevels(), l)
		}
	}
	if p.GetVerifier().GetId() == "" || p.GetPolicy().GetUri() == "" || len(p.GetPolicy().GetDigest()) == 0 || len(p.GetInputAttestations()) == 0 || p.GetSlsaVersion() == "" {
		return fmt.Errorf("a verifier, a policy URI and digest, input attestations and slsaVersion are required")
	}
	return nil
}

// VerifyCoverage checks a coverage envelope (its JSON) against ring and
// want like VerifyVSA, then the predicate: the repository, and a class of
// identity or replay (the audited change merged unchanged).
func VerifyCoverage(raw []byte, ring attest.Keyring, want Want) (*Verified, *CoveragePredicate, error) {
	v, err := open(raw, ring, want, CoveragePredicateType)
	if err != nil {
		return nil, nil, err
	}
	b, err := protojson.Marshal(v.Statement.GetPredicate())
	if err != nil {
		return nil, nil, fmt.Errorf("coverage: %w", err)
	}
	var p CoveragePredicate
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, nil, fmt.Errorf("coverage: predicate: %w", err)
	}
	if want.Repository != "" && p.Repository != RepositoryURI(want.Repository) {
		return nil, nil, fmt.Errorf("coverage: repository %q, want %q", p.Repository, RepositoryURI(want.Repository))
	}
	if !p.Class.Covered() {
		return nil, nil, fmt.Errorf("coverage: class %q (%s), want identity or replay; residual paths %v", p.Class, p.Reason, paths(p.Residual))
	}
	return v, &p, nil
}

func paths(ds []coverage.PathDiff) []string {
	return coverage.Result{Residual: ds}.ResidualPaths()
}

// open verifies the envelope's signature, parses and validates the
// statement, and checks its predicate type and its one subject.
func open(raw []byte, ring attest.Keyring, want Want, predicateType string) (*Verified, error) {
	payload, keyID, err := attest.OpenStatement(raw, ring)
	if err != nil {
		return nil, err
	}
	st, err := ParseStatement(payload)
	if err != nil {
		return nil, err
	}
	if st.GetPredicateType() != predicateType {
		return nil, fmt.Errorf("statement: predicateType %q, want %q", st.GetPredicateType(), predicateType)
	}
	if len(st.GetSubject()) != 1 {
		return nil, fmt.Errorf("statement: %d subjects, want one revision", len(st.GetSubject()))
	}
	sub := st.GetSubject()[0]
	sha := sub.GetDigest()["gitCommit"]
	if !coverage.ValidSHA(sha) || (want.SHA != "" && sha != want.SHA) {
		return nil, fmt.Errorf("statement: subject commit %q, want %s", sha, show(want.SHA))
	}
	if want.Repository != "" && sub.GetUri() != RevisionSubject(want.Repository, sha).GetUri() {
		return nil, fmt.Errorf("statement: subject %q, want %q", sub.GetUri(), RevisionSubject(want.Repository, sha).GetUri())
	}
	return &Verified{KeyID: keyID, SHA: sha, RepositoryChecked: want.Repository != "", Statement: st}, nil
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

func show(s string) string {
	if s == "" {
		return "a full 40-hex SHA"
	}
	return s
}
