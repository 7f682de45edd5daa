// Package sourceverify verifies the standard statements aepgate signs
// beside its certificate (protocol/sourceattest builds them): a
// source-review coverage statement and an SLSA Source VSA, each an in-toto
// Statement v1 in a DSSE envelope. It reads them as plain JSON, with no
// protobuf runtime, so that the aepgate CLI binary (which links none of
// the App's libraries) can verify them; protocol/sourceattest's Verify
// functions apply these same checks and then read the statement with
// in-toto's Go bindings too. It is pure.
package sourceverify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/coverage"
)

// The statement type, the two predicate types, and what a VSA reports.
const (
	StatementType         = "https://in-toto.io/Statement/v1"
	CoveragePredicateType = "https://aepgate.dev/source-review-coverage/v0.1"
	VSAPredicateType      = "https://slsa.dev/verification_summary/v1"
	SLSAVersion           = "1.2"
	SourceLevel1          = "SLSA_SOURCE_LEVEL_1"
	SourceLevel2          = "SLSA_SOURCE_LEVEL_2"
	TwoPartyReviewed      = "SLSA_SOURCE_TWO_PARTY_REVIEWED"
	Passed                = "PASSED"
)

// RepositoryURI is the URI of repository (OWNER/REPO) on GitHub.
func RepositoryURI(repository string) string { return "https://github.com/" + repository }

// RevisionURI is the URI of commit sha of repository on GitHub: a
// statement's subject uri.
func RevisionURI(repository, sha string) string {
	return RepositoryURI(repository) + "/commit/" + sha
}

// Attestation names another attestation by URI and digest set (the
// certificate envelope whose audit the coverage is about, a VSA's input).
type Attestation struct {
	URI    string            `json:"uri"`
	Digest map[string]string `json:"digest"`
}

// Change is the audited change: the diff from Base (the audited head's
// merge base with the base branch when it was audited) to Head.
type Change struct {
	Head string `json:"head"`
	Base string `json:"base"`
}

// CoveragePredicate is the source-review-coverage predicate: the class of
// the shipped commit (the statement's subject), the audited change, the
// commit it landed on, the trees compared, and what no review covers.
type CoveragePredicate struct {
	Repository  string              `json:"repository"`
	Class       coverage.Class      `json:"class"`
	Reviewed    Change              `json:"reviewed"`
	Onto        string              `json:"onto"`
	ShippedTree string              `json:"shippedTree"`
	ReplayTree  string              `json:"replayTree,omitempty"`
	Residual    []coverage.PathDiff `json:"residual,omitempty"`
	Reason      string              `json:"reason,omitempty"`
	Reviews     []Attestation       `json:"reviews,omitempty"`
}

// VSAPredicate is the VSA's predicate as SLSA's verification_summary/v1
// names its fields (in-toto's VerificationSummary).
type VSAPredicate struct {
	Verifier struct {
		ID      string            `json:"id"`
		Version map[string]string `json:"version,omitempty"`
	} `json:"verifier"`
	TimeVerified       string            `json:"timeVerified,omitempty"`
	ResourceURI        string            `json:"resourceUri"`
	Policy             Attestation       `json:"policy"`
	InputAttestations  []Attestation     `json:"inputAttestations,omitempty"`
	VerificationResult string            `json:"verificationResult"`
	VerifiedLevels     []string          `json:"verifiedLevels,omitempty"`
	DependencyLevels   map[string]uint64 `json:"dependencyLevels,omitempty"`
	SlsaVersion        string            `json:"slsaVersion,omitempty"`
}

// Want is what a verifier expects of a statement beyond a good signature:
// the repository (OWNER/REPO; empty: not checked, and Verified says so),
// the commit (empty: any), and for a VSA the levels it must name.
type Want struct {
	Repository string
	SHA        string
	Levels     []string
}

// Subject is a statement's one subject: the commit's URI and digest set.
type Subject struct {
	URI    string            `json:"uri"`
	Digest map[string]string `json:"digest"`
}

// Verified is a statement that passed: the key that signed it, its
// subject, whether the repository was checked, its predicate (raw, and
// decoded as Coverage or VSA), and the SHA-256 digests of the envelopes
// it names (a coverage statement's reviews, a VSA's inputs).
type Verified struct {
	KeyID             string             `json:"keyId"`
	PredicateType     string             `json:"predicateType"`
	Subject           Subject            `json:"subject"`
	SHA               string             `json:"-"`
	RepositoryChecked bool               `json:"-"`
	Predicate         json.RawMessage    `json:"predicate"`
	Coverage          *CoveragePredicate `json:"-"`
	VSA               *VSAPredicate      `json:"-"`
	Names             []string           `json:"-"`
}

// Verify checks a coverage statement's or a VSA's envelope (its JSON;
// the predicate type tells which) against ring and want: the signature
// (attest.OpenStatement), the statement (its type, one subject with a
// gitCommit digest, no unknown or repeated field), the subject naming
// want's commit of want's repository, and the predicate (Coverage's or
// VSA's rules).
func Verify(raw []byte, ring attest.Keyring, want Want) (*Verified, error) {
	payload, keyID, err := attest.OpenStatement(raw, ring)
	if err != nil {
		return nil, err
	}
	if _, err := canonical.Parse(payload, canonical.Options{RejectDuplicateKeys: true}); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	var st struct {
		Type          string          `json:"_type"`
		Subject       []Subject       `json:"subject"`
		PredicateType string          `json:"predicateType"`
		Predicate     json.RawMessage `json:"predicate"`
	}
	if err := strict(payload, &st); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	if st.Type != StatementType {
		return nil, fmt.Errorf("statement: wrong statement type %q, want %q", st.Type, StatementType)
	}
	if len(st.Subject) != 1 {
		return nil, fmt.Errorf("statement: %d subjects, want one revision", len(st.Subject))
	}
	v := &Verified{KeyID: keyID, PredicateType: st.PredicateType, Subject: st.Subject[0], SHA: st.Subject[0].Digest["gitCommit"],
		RepositoryChecked: want.Repository != "", Predicate: st.Predicate}
	if err := subject(v, want); err != nil {
		return nil, err
	}
	switch st.PredicateType {
	case VSAPredicateType:
		err = vsa(v, want)
	case CoveragePredicateType:
		err = coverageOf(v, want)
	default:
		err = fmt.Errorf("statement: predicateType %q, want %q or %q", st.PredicateType, CoveragePredicateType, VSAPredicateType)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// subject checks the one subject: a gitCommit digest of 40 hex digits,
// want's commit, and a uri naming want's repository.
func subject(v *Verified, want Want) error {
	if !coverage.ValidSHA(v.SHA) || (want.SHA != "" && v.SHA != want.SHA) {
		return fmt.Errorf("statement: subject commit %q, want %s", v.SHA, show(want.SHA))
	}
	if want.Repository != "" && v.Subject.URI != RevisionURI(want.Repository, v.SHA) {
		return fmt.Errorf("statement: subject %q, want %q", v.Subject.URI, RevisionURI(want.Repository, v.SHA))
	}
	return nil
}

// vsa checks a VSA's predicate against want.
func vsa(v *Verified, want Want) error {
	var p VSAPredicate
	if err := strict(v.Predicate, &p); err != nil {
		return fmt.Errorf("vsa: %w", err)
	}
	if want.Repository != "" && p.ResourceURI != "git+"+RepositoryURI(want.Repository) {
		return fmt.Errorf("vsa: resourceUri %q, want %q", p.ResourceURI, "git+"+RepositoryURI(want.Repository))
	}
	if p.VerificationResult != Passed {
		return fmt.Errorf("vsa: verificationResult %q, want %s", p.VerificationResult, Passed)
	}
	for _, l := range want.Levels {
		if !slices.Contains(p.VerifiedLevels, l) {
			return fmt.Errorf("vsa: verifiedLevels %v lack %s", p.VerifiedLevels, l)
		}
	}
	if p.Verifier.ID == "" || p.Policy.URI == "" || len(p.Policy.Digest) == 0 || len(p.InputAttestations) == 0 || p.SlsaVersion == "" {
		return errors.New("vsa: a verifier, a policy URI and digest, input attestations and slsaVersion are required")
	}
	for _, in := range p.InputAttestations {
		v.Names = append(v.Names, in.Digest["sha256"])
	}
	v.VSA = &p
	return nil
}

// coverageOf checks a coverage statement's predicate against want: the
// repository, and a class of identity or replay (the audited change
// merged unchanged). Levels are a VSA's: a coverage statement names none.
func coverageOf(v *Verified, want Want) error {
	var p CoveragePredicate
	if err := strict(v.Predicate, &p); err != nil {
		return fmt.Errorf("coverage: predicate: %w", err)
	}
	if want.Repository != "" && p.Repository != RepositoryURI(want.Repository) {
		return fmt.Errorf("coverage: repository %q, want %q", p.Repository, RepositoryURI(want.Repository))
	}
	if !p.Class.Covered() {
		return fmt.Errorf("coverage: class %q (%s), want identity or replay; residual paths %v", p.Class, p.Reason, coverage.Result{Residual: p.Residual}.ResidualPaths())
	}
	for _, r := range p.Reviews {
		v.Names = append(v.Names, r.Digest["sha256"])
	}
	v.Coverage = &p
	return nil
}

// strict decodes one JSON object into v, unknown fields refused.
func strict(raw []byte, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return errors.New("missing")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func show(s string) string {
	if s == "" {
		return "a full 40-hex SHA"
	}
	return s
}
