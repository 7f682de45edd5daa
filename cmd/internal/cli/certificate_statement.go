package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// statementReport is what certificate verify prints for a verified
// standard statement (a coverage statement or a VSA).
type statementReport struct {
	Verified      bool                 `json:"verified"`
	PredicateType string               `json:"predicateType"`
	KeyID         string               `json:"keyId"`
	Subject       sourceverify.Subject `json:"subject"`
	Repository    string               `json:"repository"`
	Predicate     json.RawMessage      `json:"predicate"`
	Unchecked     []string             `json:"unchecked"`
	// names are the SHA-256 digests of the envelopes the statement names
	// (a coverage statement's reviews, a VSA's input attestations).
	names []string
}

// isStatement reports whether predicateType is one of the standard
// statements the App publishes beside its certificate.
func isStatement(predicateType string) bool {
	return predicateType == sourceverify.VSAPredicateType || predicateType == sourceverify.CoveragePredicateType
}

// verifyStatement verifies env (a coverage statement or a VSA, told apart
// by its predicate type) against ring and want with protocol/sourceverify:
// the signature, the statement, its one subject, the repository and, for
// a VSA, the levels.
func verifyStatement(env []byte, ring attest.Keyring, want sourceverify.Want) (*statementReport, error) {
	v, err := sourceverify.Verify(env, ring, want)
	if err != nil {
		return nil, err
	}
	repo, _, _ := strings.Cut(strings.TrimPrefix(v.Subject.URI, sourceverify.RepositoryURI("")), "/commit/")
	return &statementReport{Verified: true, PredicateType: v.PredicateType, KeyID: v.KeyID, Subject: v.Subject,
		Repository: repo, Predicate: v.Predicate, names: v.Names}, nil
}

// statementVerify is certificate verify for a coverage statement or a VSA.
func statementVerify(s streams, env []byte, ring attest.Keyring, want verifyWant) error {
	rep, err := verifyStatement(env, ring, sourceverify.Want{Repository: want.Repository, SHA: want.SHA, Levels: want.levels})
	if err != nil {
		return verifyRefused(s, err)
	}
	rep.Unchecked = want.unchecked(s, rep.Repository)
	if err := writeEvidenceJSON(s.out, rep); err != nil {
		return failf(2, "certificate verify: %w", err)
	}
	return nil
}

// fetchedStatement verifies the statement --statement names on the trusted
// run for --repo and --sha, and that it names the run's own certificate
// envelope (which must verify too) by digest, then prints it.
func fetchedStatement(s streams, fl certificateFetchFlags, got judgement) error {
	env, err := checks.StatementFromText(got.run.Text, fl.statement)
	if err != nil {
		return failf(exitFindings, "certificate fetch: refused: check run %d: %w", got.run.ID, err)
	}
	unit, err := checks.AttestationFromText(got.run.Text)
	if err != nil {
		return failf(exitFindings, "certificate fetch: refused: check run %d: %w", got.run.ID, err)
	}
	if _, err := attest.Verify(unit, fl.ring, attest.Want{SHA: fl.sha, Repository: fl.repo}); err != nil {
		return failf(exitFindings, "certificate fetch: refused: the run's certificate envelope: %w", err)
	}
	rep, err := verifyStatement(env, fl.ring, sourceverify.Want{Repository: fl.repo, SHA: fl.sha})
	if err != nil {
		fmt.Fprintf(s.err, "check run %d: %s statement: %v\n", got.run.ID, fl.statement, err)
		return failf(exitFindings, "certificate fetch: refused: the %s statement: %w", fl.statement, err)
	}
	sum, err := attest.EnvelopeDigest(unit)
	if err != nil || !slices.Contains(rep.names, sum) {
		return failf(exitFindings, "certificate fetch: refused: the %s statement does not name the run's certificate envelope (sha256 %s) among %v", fl.statement, sum, rep.names)
	}
	fmt.Fprintf(s.err, "%s statement: signed by key %s, subject %s in %s\n", fl.statement, rep.KeyID, fl.sha, rep.Repository)
	if _, err := s.out.Write(append(env, '\n')); err != nil {
		return failf(2, "certificate fetch: %w", err)
	}
	return nil
}

// fetchedSigned is --attestation's or --statement's reading of the trusted
// run.
func fetchedSigned(c *cobra.Command, s streams, fl certificateFetchFlags, got judgement) error {
	if fl.statement != "" {
		return fetchedStatement(s, fl, got)
	}
	return fetchedAttestation(c, s, fl, got)
}
