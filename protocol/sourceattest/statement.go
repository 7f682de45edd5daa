package sourceattest

import (
	"bytes"
	"fmt"
	"strings"

	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// RepositoryURI is the URI of repository (OWNER/REPO) on GitHub.
func RepositoryURI(repository string) string { return sourceverify.RepositoryURI(repository) }

// RevisionSubject is the resource descriptor of commit sha of repository:
// its URI on GitHub and its git commit digest.
func RevisionSubject(repository, sha string) *intoto.ResourceDescriptor {
	return &intoto.ResourceDescriptor{
		Uri:    sourceverify.RevisionURI(repository, sha),
		Digest: map[string]string{"gitCommit": sha},
	}
}

// validRepository reports whether repository is OWNER/REPO.
func validRepository(repository string) bool {
	owner, name, ok := strings.Cut(repository, "/")
	return ok && owner != "" && name != "" && !strings.ContainsAny(name, "/ \t\n") && !strings.ContainsAny(owner, " \t\n")
}

// newStatement is the in-toto statement of predicate (a JSON object's
// bytes) about commit sha of repository, validated with the bindings' own
// Validate.
func newStatement(repository, sha, predicateType string, raw []byte) (*intoto.Statement, error) {
	if !validRepository(repository) || !coverage.ValidSHA(sha) {
		return nil, fmt.Errorf("statement: repository %q and commit %q must be OWNER/REPO and 40 hex digits", repository, sha)
	}
	var pred structpb.Struct
	if err := protojson.Unmarshal(raw, &pred); err != nil {
		return nil, fmt.Errorf("statement: predicate: %w", err)
	}
	st := &intoto.Statement{
		Type:          intoto.StatementTypeUri,
		Subject:       []*intoto.ResourceDescriptor{RevisionSubject(repository, sha)},
		PredicateType: predicateType,
		Predicate:     &pred,
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return st, nil
}

// Payload is the statement's canonical JSON: the bytes a DSSE envelope
// carries (protojson's own output varies its whitespace on purpose).
func Payload(st *intoto.Statement) ([]byte, error) {
	raw, err := protojson.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	v, err := canonical.Parse(raw, canonical.Options{RejectDuplicateKeys: true})
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	var b bytes.Buffer
	if err := canonical.Write(&b, v); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return b.Bytes(), nil
}

// Sign signs the statement as a DSSE envelope with s.
func Sign(s *attest.Signer, st *intoto.Statement) (*attest.Envelope, error) {
	p, err := Payload(st)
	if err != nil {
		return nil, err
	}
	return attest.Sign(s, attest.PayloadType, p)
}

// ParseStatement reads a statement payload with the bindings (unknown
// fields refused) and validates it.
func ParseStatement(payload []byte) (*intoto.Statement, error) {
	var st intoto.Statement
	if err := protojson.Unmarshal(payload, &st); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return &st, nil
}
