package sourceattest

import (
	"encoding/json"
	"fmt"

	intoto "github.com/in-toto/attestation/go/v1"

	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// CoveragePredicateType names the source-review-coverage predicate as
// aepgate writes it (see the package comment).
const CoveragePredicateType = sourceverify.CoveragePredicateType

// Attestation names another attestation by URI and digest set (the
// certificate envelope whose audit the coverage is about, a VSA's input).
type Attestation = sourceverify.Attestation

// Change is the audited change: the diff from Base (the audited head's
// merge base with the base branch when it was audited) to Head.
type Change = sourceverify.Change

// CoveragePredicate is the source-review-coverage predicate
// (protocol/sourceverify's, where the CLI verifies it without the
// bindings).
type CoveragePredicate = sourceverify.CoveragePredicate

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
