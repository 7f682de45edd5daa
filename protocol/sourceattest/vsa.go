package sourceattest

import (
	"fmt"
	"time"

	vsa "github.com/in-toto/attestation/go/predicates/vsa/v1"
	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// The VSA's predicate type, the SLSA version whose Source track it
// reports, and the levels and property it can name.
const (
	VSAPredicateType = sourceverify.VSAPredicateType
	SLSAVersion      = sourceverify.SLSAVersion
	SourceLevel1     = sourceverify.SourceLevel1
	SourceLevel2     = sourceverify.SourceLevel2
	TwoPartyReviewed = sourceverify.TwoPartyReviewed
	Passed           = sourceverify.Passed
)

// VSAFacts are what a VSA for one merged revision is built from.
type VSAFacts struct {
	// Repository is OWNER/REPO; Revision the merged commit (the subject).
	Repository string
	Revision   string
	// Verifier names aepgate as the verifier (its URI and version).
	Verifier     string
	TimeVerified time.Time
	// PolicyURI points at the repository's aepgate config at its commit;
	// PolicyDigest is that file's digest set (gitBlob).
	PolicyURI    string
	PolicyDigest map[string]string
	// Inputs are the attestations verified: the certificate envelope, the
	// coverage statement.
	Inputs []Attestation
	// Certificate is the revision's completion certificate (its canonical
	// JSON); Coverage the revision's coverage class.
	Certificate []byte
	Coverage    coverage.Class
	// HistoryProtected: the base branch's rules forbid force pushes and
	// deletion (the continuity SLSA Source level 2 asks for).
	HistoryProtected bool
}

// Levels are the Source track levels f supports: level 2 with protected
// history, level 1 otherwise (a revision in git on GitHub), and
// SLSA_SOURCE_TWO_PARTY_REVIEWED when the certificate validates (so the
// independent audit passed at the audited head and no owner gate was left
// open), names this revision of this repository, and the coverage is
// identity or replay.
func Levels(f VSAFacts) []string {
	levels := []string{SourceLevel1}
	if f.HistoryProtected {
		levels = []string{SourceLevel2}
	}
	if reviewed(f) == nil {
		levels = append(levels, TwoPartyReviewed)
	}
	return levels
}

// reviewed says why f does not show two-party review (nil when it does).
func reviewed(f VSAFacts) error {
	v := certificate.Validate(f.Certificate)
	if !v.Valid {
		return fmt.Errorf("the certificate does not validate: %v", v.Errors)
	}
	if v.Certificate["repository"] != f.Repository || v.Certificate["mergeSha"] != f.Revision {
		return fmt.Errorf("the certificate is about %v@%v, not %s@%s", v.Certificate["repository"], v.Certificate["mergeSha"], f.Repository, f.Revision)
	}
	if v.Certificate["auditVerdict"] != "PASS" || len(anyList(v.Certificate["unresolvedGates"])) != 0 {
		return fmt.Errorf("the certificate has no PASS audit with every owner gate resolved")
	}
	if !f.Coverage.Covered() {
		return fmt.Errorf("the coverage is %q, not identity or replay", f.Coverage)
	}
	return nil
}

func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// NewVSA is the Verification Summary Attestation of f: PASSED, with the
// levels f supports. It refuses facts that are incomplete or that do not
// show two-party review (a VSA is made for certified merges only).
func NewVSA(f VSAFacts) (*intoto.Statement, error) {
	if err := reviewed(f); err != nil {
		return nil, fmt.Errorf("vsa: %w", err)
	}
	if f.Verifier == "" || f.PolicyURI == "" || len(f.PolicyDigest) == 0 || len(f.Inputs) == 0 || f.TimeVerified.IsZero() {
		return nil, fmt.Errorf("vsa: a verifier, a policy URI and digest, input attestations and a verification time are required")
	}
	p := &vsa.VerificationSummary{
		Verifier:           &vsa.VerificationSummary_Verifier{Id: f.Verifier},
		TimeVerified:       timestamppb.New(f.TimeVerified.UTC()),
		ResourceUri:        "git+" + RepositoryURI(f.Repository),
		Policy:             &vsa.VerificationSummary_Policy{Uri: f.PolicyURI, Digest: f.PolicyDigest},
		VerificationResult: Passed,
		VerifiedLevels:     Levels(f),
		SlsaVersion:        SLSAVersion,
	}
	for _, in := range f.Inputs {
		p.InputAttestations = append(p.InputAttestations, &vsa.VerificationSummary_InputAttestation{Uri: in.URI, Digest: in.Digest})
	}
	raw, err := protojson.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("vsa: %w", err)
	}
	return newStatement(f.Repository, f.Revision, VSAPredicateType, raw)
}
