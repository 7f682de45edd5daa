package attest

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

var sha40 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })

// ruleStatement reads the payload as an in-toto statement with a predicate
// object and exactly one subject that names a git commit. A key
// repeated anywhere in the payload is refused: what was signed must mean
// one thing to every reader.
func ruleStatement(v *verification) *refusal.Refusal {
	m, err := canonical.ParseObject(v.env.Payload, canonical.Options{RejectDuplicateKeys: true})
	if err != nil {
		return refuse(TokenStatementMalformed, "an in-toto statement: one strict JSON object", err)
	}
	pred, ok := m["predicate"].(map[string]any)
	if !ok {
		return refuse(TokenStatementMalformed, "a predicate object (the certificate)", canonical.Kind(m["predicate"]))
	}
	sub, ok := oneSubject(m["subject"])
	if !ok {
		return refuse(TokenStatementMalformed, "exactly one subject {name, digest: {gitCommit: <40 hex>}}", m["subject"])
	}
	typ, _ := m["_type"].(string)
	ptype, _ := m["predicateType"].(string)
	v.stmt = Statement{Type: typ, Subject: []Subject{sub}, PredicateType: ptype, Predicate: pred}
	v.sha = sub.Digest["gitCommit"]
	v.repository = SubjectRepository(sub)
	var b bytes.Buffer
	if err := canonical.Write(&b, pred); err != nil {
		return refuse(TokenStatementMalformed, "a predicate of JSON values", err)
	}
	v.cert = b.Bytes()
	return nil
}

// ruleTypes refuses a statement that is not an in-toto Statement v1 of
// aepgate's certificate predicate: another predicate signed by the same key
// is not a certificate.
func ruleTypes(v *verification) *refusal.Refusal {
	if v.stmt.Type != StatementType {
		return refuse(TokenStatementType, "_type "+StatementType, v.stmt.Type)
	}
	if v.stmt.PredicateType != v.kind.PredicateType {
		return refuse(TokenPredicateType, "predicateType "+v.kind.PredicateType, v.stmt.PredicateType)
	}
	return nil
}

func oneSubject(v any) (Subject, bool) {
	list, ok := v.([]any)
	if !ok || len(list) != 1 {
		return Subject{}, false
	}
	m, ok := list[0].(map[string]any)
	if !ok {
		return Subject{}, false
	}
	name, _ := m["name"].(string)
	digest, _ := m["digest"].(map[string]any)
	sha, _ := digest["gitCommit"].(string)
	if !sha40().MatchString(sha) {
		return Subject{}, false
	}
	return Subject{Name: name, Digest: map[string]string{"gitCommit": sha}}, true
}

// ruleSubjectIsCertificate refuses a statement whose subject is not the
// commit its certificate is about, so a certificate cannot be re-signed as
// evidence for another commit.
func ruleSubjectIsCertificate(v *verification) *refusal.Refusal {
	k := v.kind
	got, _ := v.stmt.Predicate[k.SubjectKey].(string)
	if v.sha != got {
		return refuse(TokenSubjectCertificate, "the subject to be the certificate's "+k.SubjectKey+" "+got, v.sha)
	}
	return nil
}

// ruleSubjectWanted refuses a statement about another commit than the one
// the verifier asked for.
func ruleSubjectWanted(v *verification) *refusal.Refusal {
	if v.want.SHA != "" && !strings.EqualFold(v.want.SHA, v.sha) {
		return refuse(TokenSubjectSHA, "a statement about commit "+v.want.SHA, "a statement about commit "+v.sha)
	}
	return nil
}

// ruleCertificate refuses a signed certificate that breaks the
// certificate rules (craft-rules §1.2 under aepgate's §8.1): a signature
// vouches for who wrote it, never that it is right.
func ruleCertificate(v *verification) *refusal.Refusal {
	if v.kind.Name == Increment.Name {
		return ruleIncrementCertificate(v)
	}
	res := certificate.Validate(v.cert)
	if !res.Valid {
		return refuse(TokenCertificateInvalid, "a certificate that passes certificate validate", strings.Join(res.Errors, ", "))
	}
	return nil
}
