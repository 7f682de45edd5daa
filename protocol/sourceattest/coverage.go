package sourceattest

import (
	"encoding/json"
	"fmt"

	intoto "github.com/in-toto/attestation/go/v1"

	"github.com/aepgate/aepgate/protocol/coverage"
)

// CoveragePredicateType names the source-review-coverage predicate as
// aepgate writes it (see the package comment).
const CoveragePredicateType = "https://aepgate.dev/source-review-coverage/v0.1"

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

// NewCoverage is the coverage statement of what internal/replay observed
// in repository (OWNER/REPO), classified here by coverage.Classify (so the
// statement never carries a class the observation does not support): its
// subject the shipped commit, reviews the attestations of the audit (the
// signed certificate, by digest).
func NewCoverage(repository string, o coverage.Observation, reviews []Attestation) (*intoto.Statement, error) {
	r := coverage.Classify(o)
	if !coverage.ValidSHA(o.Shipped) {
		return nil, fmt.Errorf("coverage statement: shipped commit %q is not 40 hex digits", o.Shipped)
	}
	p := CoveragePredicate{
		Repository: RepositoryURI(repository), Class: r.Class,
		Reviewed: Change{Head: o.AuditedHead, Base: o.AuditBase}, Onto: o.Onto,
		ShippedTree: o.ShippedTree, ReplayTree: o.ReplayTree, Residual: r.Residual, Reason: r.Reason, Reviews: reviews,
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("coverage statement: %w", err)
	}
	return newStatement(repository, o.Shipped, CoveragePredicateType, raw)
}
