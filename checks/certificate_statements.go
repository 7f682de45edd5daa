package checks

import (
	"errors"
	"fmt"
	"strings"
)

// The standard statements a signed certificate run can carry beside the
// certificate's own envelope: the merged revision's source-review
// coverage statement and its SLSA Source VSA.
const (
	StatementCoverage = "coverage"
	StatementVSA      = "vsa"
)

// StatementKinds are the statements' names, in the order the text holds
// them.
var StatementKinds = []string{StatementCoverage, StatementVSA}

// statementsHeading opens the part of a signed certificate run's text
// that holds the standard statements, after the certificate's envelope.
const statementsHeading = "\n## Standard statements\n\n"

// statementHeading opens one statement's block.
func statementHeading(kind string) string { return "### " + kind + "\n\n```json\n" }

// WithStatements is r (a SignedCertificateRun) with the standard
// statements' signed envelopes after the certificate's: coverage and vsa
// are each a DSSE envelope's JSON on one line, signed by key keyID.
// StatementFromText reads them back; AttestationFromText still reads the
// certificate's envelope.
func WithStatements(r Run, coverage, vsa []byte, keyID string) Run {
	var b strings.Builder
	b.WriteString(r.Text)
	b.WriteString(statementsHeading)
	b.WriteString("The same commit's standard statements, each an in-toto statement in a DSSE envelope signed by " + code(keyID) + ": ")
	b.WriteString("the source-review coverage statement (how much of the shipped tree the audit covers) and the SLSA Source ")
	b.WriteString("verification summary (VSA, `https://slsa.dev/verification_summary/v1`). ")
	b.WriteString("`aepgate certificate fetch --statement coverage|vsa` fetches and verifies one; ")
	b.WriteString("`aepgate certificate verify FILE --jwks KEYS.json --repo OWNER/REPO` verifies a saved one.\n")
	for _, s := range []struct {
		kind string
		env  []byte
	}{{StatementCoverage, coverage}, {StatementVSA, vsa}} {
		b.WriteString("\n")
		b.WriteString(statementHeading(s.kind))
		b.Write(s.env)
		b.WriteString("\n```\n")
	}
	r.Text = b.String()
	return r
}

// StatementFromText returns the DSSE envelope JSON of the statement kind
// (StatementCoverage or StatementVSA) in a certificate run's output text,
// as WithStatements writes it. It does not verify it.
func StatementFromText(text, kind string) ([]byte, error) {
	if kind != StatementCoverage && kind != StatementVSA {
		return nil, fmt.Errorf("certificate run: no statement kind %q: want %s", kind, strings.Join(StatementKinds, " or "))
	}
	_, rest, ok := strings.Cut(text, statementsHeading)
	if !ok {
		return nil, errors.New("certificate run: no standard statements in its output text (a certificate issued unsigned, before the App published them, or for a merge whose coverage is not identity or replay)")
	}
	if strings.Count(rest, statementHeading(kind)) != 1 {
		return nil, fmt.Errorf("certificate run: not exactly one %s statement in its output text", kind)
	}
	_, body, _ := strings.Cut(rest, statementHeading(kind))
	body, _, ok = strings.Cut(body, "\n```\n")
	if !ok || body == "" || strings.Contains(body, "\n") {
		return nil, fmt.Errorf("certificate run: the %s statement is not one json line in a fenced block", kind)
	}
	return []byte(body), nil
}
