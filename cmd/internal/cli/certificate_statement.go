package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/sourceattest"
)

// statementReport is what certificate verify prints for a verified
// standard statement (a coverage statement or a VSA).
type statementReport struct {
	Verified      bool            `json:"verified"`
	PredicateType string          `json:"predicateType"`
	KeyID         string          `json:"keyId"`
	Subject       json.RawMessage `json:"subject"`
	Repository    string          `json:"repository"`
	Predicate     json.RawMessage `json:"predicate"`
	Unchecked     []string        `json:"unchecked"`
	// names are the SHA-256 digests of the envelopes the statement names
	// (a coverage statement's reviews, a VSA's input attestations).
	names []string
}

// isStatement reports whether predicateType is one of the standard
// statements the App publishes beside its certificate.
func isStatement(predicateType string) bool {
	return predicateType == sourceattest.VSAPredicateType || predicateType == sourceattest.CoveragePredicateType
}

// verifyStatement verifies env (a coverage statement or a VSA, told apart
// by its predicate type) against ring and want with protocol/sourceattest:
// the signature, the statement, its one subject, the repository and, for
// a VSA, the levels.
func verifyStatement(env []byte, ring attest.Keyring, want sourceattest.Want) (*statementReport, error) {
	var v *sourceattest.Verified
	var names []string
	var err error
	switch pt := attest.StatementPredicateType(env); pt {
	case sourceattest.VSAPredicateType:
		got, p, verr := sourceattest.VerifyVSA(env, ring, want)
		v, err = got, verr
		for _, in := range p.GetInputAttestations() {
			names = append(names, in.GetDigest()["sha256"])
		}
	case sourceattest.CoveragePredicateType:
		if len(want.Levels) > 0 {
			return nil, errors.New("--level applies to a VSA only; this is a coverage statement")
		}
		got, p, verr := sourceattest.VerifyCoverage(env, ring, want)
		v, err = got, verr
		if p != nil {
			for _, r := range p.Reviews {
				names = append(names, r.Digest["sha256"])
			}
		}
	default:
		return nil, fmt.Errorf("predicate type %q is not a coverage statement's or a VSA's", pt)
	}
	if err != nil {
		return nil, err
	}
	return newStatementReport(v, names)
}

// newStatementReport is the report of verified statement v.
func newStatementReport(v *sourceattest.Verified, names []string) (*statementReport, error) {
	sub, err := protojson.Marshal(v.Statement.GetSubject()[0])
	if err != nil {
		return nil, err
	}
	pred, err := protojson.Marshal(v.Statement.GetPredicate())
	if err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, pred); err != nil {
		return nil, err
	}
	uri := v.Statement.GetSubject()[0].GetUri()
	repo, _, _ := strings.Cut(strings.TrimPrefix(uri, "https://github.com/"), "/commit/")
	return &statementReport{Verified: true, PredicateType: v.Statement.GetPredicateType(), KeyID: v.KeyID,
		Subject: json.RawMessage(sub), Repository: repo, Predicate: compact.Bytes(), names: names}, nil
}

// statementVerify is certificate verify for a coverage statement or a VSA.
func statementVerify(s streams, env []byte, ring attest.Keyring, want verifyWant) error {
	rep, err := verifyStatement(env, ring, sourceattest.Want{Repository: want.Repository, SHA: want.SHA, Levels: want.levels})
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
	rep, err := verifyStatement(env, fl.ring, sourceattest.Want{Repository: fl.repo, SHA: fl.sha})
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
