package attest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aepgate/aepgate/protocol/canonical"
)

// StatementType is the _type of an in-toto Statement v1.
const StatementType = "https://in-toto.io/Statement/v1"

// PredicateType names aepgate's certificate predicate: the predicate is the
// completion certificate object itself (docs/evidence.md).
const PredicateType = "https://aepgate.dev/certificate/v1"

// Subject is an in-toto resource descriptor: a name and a digest set; ours
// carry the commit's git SHA under "gitCommit".
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Statement is an in-toto Statement v1 whose predicate is kept as parsed
// JSON (map[string]any from canonical.Parse).
type Statement struct {
	Type          string         `json:"_type"`
	Subject       []Subject      `json:"subject"`
	PredicateType string         `json:"predicateType"`
	Predicate     map[string]any `json:"predicate"`
}

// IncrementPredicateType names aepgate's increment certificate predicate:
// the predicate is the increment certificate object itself
// (docs/increment.md), its stories naming their signed unit envelopes by
// digest.
const IncrementPredicateType = "https://aepgate.dev/increment/v1"

// Kind says which certificate a statement carries: its predicate type and
// the certificate field naming the commit it is about. A unit's is its
// merge commit (mergeSha); an increment's its integrated commit
// (integratedSha). The statement's one subject must be that commit.
type Kind struct {
	Name          string
	SubjectKey    string
	PredicateType string
}

// Unit is the kind of a work unit's completion certificate.
var Unit = Kind{Name: "unit", SubjectKey: "mergeSha", PredicateType: PredicateType}

// Increment is the kind of an increment certificate.
var Increment = Kind{Name: "increment", SubjectKey: "integratedSha", PredicateType: IncrementPredicateType}

// CommitSubject is the subject naming commit sha of repository
// (OWNER/REPO) on GitHub.
func CommitSubject(repository, sha string) Subject {
	return Subject{Name: "https://github.com/" + repository + "/commit/" + sha, Digest: map[string]string{"gitCommit": sha}}
}

// SignCertificate signs a certificate (its canonical JSON) of kind k in
// repository: the in-toto statement in a DSSE envelope signed by s. The
// payload is the statement's canonical JSON (one subject: the commit the
// certificate's k.SubjectKey field names), built without re-encoding the
// certificate: cert must be canonical JSON
// (certificate.Certificate.Canonical), as the App's always is.
func SignCertificate(s *Signer, k Kind, repository string, cert []byte) (*Envelope, error) {
	payload, err := unitPayload(k, repository, cert)
	if err != nil {
		return nil, err
	}
	return Sign(s, PayloadType, payload)
}

// unitPayload is the statement payload of cert spliced from its bytes:
// the keys _type, predicate, predicateType, subject in canonical order.
func unitPayload(k Kind, repository string, cert []byte) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(cert, &fields); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	var sha string
	if err := json.Unmarshal(fields[k.SubjectKey], &sha); err != nil || sha == "" {
		return nil, fmt.Errorf("statement: the %s certificate has no %s", k.Name, k.SubjectKey)
	}
	sub := CommitSubject(repository, sha)
	var b bytes.Buffer
	b.Grow(len(cert) + 256)
	b.WriteString(`{"_type":"` + StatementType + `","predicate":`)
	b.Write(cert)
	b.WriteString(`,"predicateType":"` + k.PredicateType + `","subject":`)
	err := canonical.Write(&b, []any{map[string]any{"digest": map[string]any{"gitCommit": sha}, "name": sub.Name}})
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
