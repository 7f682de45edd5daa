package readback

import (
	"context"
	"crypto/sha1" //nolint:gosec // a git blob's object name is its SHA-1: the policy digest in git's own terms
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	intoto "github.com/in-toto/attestation/go/v1"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceattest"
)

// verifierID names aepgate as the VSA's verifier.
const verifierID = "https://aepgate.dev/app"

// observation is what the coverage statement of the certified merge m
// rests on: the readback's own (judgement.Coverage, a replay or tree
// compare it observed) when it made one; otherwise (a squash or rebase
// under readback.coverage: strict) the strict observation: the shipped
// tree against the audited head's, and whether the audited head contains
// the commit the merge landed on (then that commit is their merge base and
// git's merge of the audited head onto it writes the audited head's tree).
// It never claims a replay it did not see: a merge onto a commit the
// audited head does not contain is then unverifiable.
func (j *Judge) observation(ctx context.Context, in Input, m *gh.MergedPull, d judgement) (coverage.Observation, error) {
	if d.Coverage != nil {
		return d.Coverage.Observation, nil
	}
	o := coverage.Observation{AuditedHead: d.audit.SHA, Shipped: m.MergeSHA, ShippedParents: append([]string(nil), m.MergeParents...), ShippedTree: m.MergeTree}
	if d.audit.SHA == m.HeadSHA {
		o.AuditedTree = m.HeadTree
	}
	if len(m.MergeParents) == 0 {
		o.Problem = "the merged commit " + m.MergeSHA + " has no parent"
		return o, nil
	}
	o.Onto = m.MergeParents[0]
	contains, err := j.contains(ctx, in, o.Onto, o.AuditedHead)
	if err != nil {
		return o, err
	}
	o.AuditedContainsOnto = contains
	if !contains {
		o.Problem = "the audited head " + o.AuditedHead + " does not contain " + o.Onto + ", the commit the merge landed on, and the readback replays no change"
		return o, nil
	}
	o.AuditBase, o.ReplayBases, o.ReplayTree = o.Onto, []string{o.Onto}, o.AuditedTree
	return o, nil
}

// contains reports whether head contains base (is base or a descendant of
// it), remembered in j.Cache.
func (j *Judge) contains(ctx context.Context, in Input, base, head string) (bool, error) {
	if base == head {
		return true, nil
	}
	key := in.Owner + "/" + in.Repo + ":" + base + "..." + head
	if v, ok := j.Cache.get(key); ok {
		return v, nil
	}
	v, err := j.GitHub.Read.ContainsCommit(ctx, in.Owner, in.Repo, base, head)
	if err != nil {
		return false, err
	}
	j.Cache.put(key, v)
	return v, nil
}

// withStatements signs the certificate run (signed) and, when it is signed,
// the merged revision's standard statements beside it: a
// source-review-coverage statement and an SLSA Source VSA, each a DSSE
// envelope in the run's text after the certificate's and a Sigstore
// bundle to upload. What was published, or why the statements were
// withheld, goes into the ledger row body. A merge whose coverage is not
// identity or replay, or whose config cannot be named by its digest, gets
// the certificate without the statements: they never claim more than the
// evidence shows.
func (j *Judge) withStatements(ctx context.Context, in Input, m *gh.MergedPull, d judgement, c *issued, body map[string]any) (checks.Run, [][]byte, error) {
	run, bundle, err := j.signed(in, m, c)
	if err != nil || bundle == nil {
		return run, nil, err
	}
	unit, err := checks.AttestationFromText(run.Text)
	if err != nil {
		return run, nil, fmt.Errorf("statements of %s/%s@%s: %w", in.Owner, in.Repo, m.MergeSHA, err)
	}
	o, err := j.observation(ctx, in, m, d)
	if err != nil {
		return run, nil, err
	}
	envs, why, err := j.statements(in, m, c, o, unit)
	if err != nil {
		return run, nil, err
	}
	if why != "" {
		body["statements"] = map[string]any{"withheld": why}
		j.Log.Info("standard statements withheld; the certificate stands", "merge_sha", m.MergeSHA, "why", why)
		return run, [][]byte{bundle}, nil
	}
	body["statements"] = map[string]any{"coverage": envs.coverageClass, "verified_levels": envs.levels}
	run = checks.WithStatements(run, envs.coverage, envs.vsa, j.After.Signer.KeyID())
	return run, [][]byte{bundle, envs.coverageBundle, envs.vsaBundle}, nil
}

// signedStatements are the two statements' envelopes (JSON lines) and
// bundles, with what they say.
type signedStatements struct {
	coverage, vsa             []byte
	coverageBundle, vsaBundle []byte
	coverageClass             coverage.Class
	levels                    []string
}

// statements builds and signs the coverage statement and the VSA of merge
// m from observation o and the certificate's envelope unit; why says why
// there are none (an error is a signing failure).
func (j *Judge) statements(in Input, m *gh.MergedPull, c *issued, o coverage.Observation, unit []byte) (*signedStatements, string, error) {
	repo := in.Owner + "/" + in.Repo
	res := coverage.Classify(o)
	if !res.Class.Covered() {
		return nil, "coverage " + string(res.Class) + ": " + res.Reason, nil
	}
	policy, why := policyOf(repo, m)
	if why != "" {
		return nil, why, nil
	}
	unitRef, err := reference(repo, m.MergeSHA, "aepgate-certificate", unit)
	if err != nil {
		return nil, "", err
	}
	out := &signedStatements{coverageClass: res.Class}
	st, err := sourceattest.NewCoverage(repo, o, []sourceattest.Attestation{unitRef})
	if err != nil {
		return nil, "", fmt.Errorf("coverage statement of %s@%s: %w", repo, m.MergeSHA, err)
	}
	if out.coverage, out.coverageBundle, err = j.signStatement(st); err != nil {
		return nil, "", err
	}
	covRef, err := reference(repo, m.MergeSHA, "aepgate-coverage", out.coverage)
	if err != nil {
		return nil, "", err
	}
	f := sourceattest.VSAFacts{Repository: repo, Revision: m.MergeSHA, Verifier: verifierID, TimeVerified: j.Now(),
		PolicyURI: policy.uri, PolicyDigest: policy.digest, Inputs: []sourceattest.Attestation{unitRef, covRef},
		Certificate: c.canonical, Coverage: res.Class}
	out.levels = sourceattest.Levels(f)
	if st, err = sourceattest.NewVSA(f); err != nil {
		return nil, "", fmt.Errorf("vsa of %s@%s: %w", repo, m.MergeSHA, err)
	}
	if out.vsa, out.vsaBundle, err = j.signStatement(st); err != nil {
		return nil, "", err
	}
	return out, "", nil
}

// signStatement signs st with the App's key: the envelope's JSON line and
// its Sigstore bundle.
func (j *Judge) signStatement(st *intoto.Statement) (env, bundle []byte, err error) {
	e, err := sourceattest.Sign(j.After.Signer, st)
	if err != nil {
		return nil, nil, fmt.Errorf("sign %s: %w", st.GetPredicateType(), err)
	}
	if env, err = json.Marshal(e); err != nil {
		return nil, nil, fmt.Errorf("sign %s: %w", st.GetPredicateType(), err)
	}
	if bundle, err = json.Marshal(attest.NewBundle(e)); err != nil {
		return nil, nil, fmt.Errorf("sign %s: %w", st.GetPredicateType(), err)
	}
	return env, bundle, nil
}

// reference names an envelope published on the merged commit's
// certificate run: the commit's URI with fragment, and the envelope's
// SHA-256 (attest.EnvelopeDigest).
func reference(repo, sha, fragment string, env []byte) (sourceattest.Attestation, error) {
	sum, err := attest.EnvelopeDigest(env)
	if err != nil {
		return sourceattest.Attestation{}, err
	}
	return sourceattest.Attestation{URI: sourceattest.RevisionSubject(repo, sha).GetUri() + "#" + fragment, Digest: map[string]string{"sha256": sum}}, nil
}

// policy is the VSA's policy: the repository's aepgate config at the
// commit it was read at, by URI and digest.
type policy struct {
	uri    string
	digest map[string]string
}

// policyOf is the config the readback of m was judged under, or why it
// cannot be named (no file, a truncated read, no commit): the VSA points
// at a file by its digest or is not made.
func policyOf(repo string, m *gh.MergedPull) (policy, string) {
	cf := m.Config
	switch {
	case !cf.Found:
		return policy{}, "no " + gh.ConfigPath + " on " + m.DefaultBranch + ": the VSA's policy must be a file with a digest"
	case cf.Truncated || cf.Unreadable != "":
		return policy{}, gh.ConfigPath + " was not read whole: the VSA's policy digest would not be the file's"
	case !coverage.ValidSHA(cf.CommitSHA):
		return policy{}, "the commit " + gh.ConfigPath + " was read at is unknown"
	}
	text := []byte(cf.Text)
	blob := sha1.New() //nolint:gosec // git's object name
	blob.Write([]byte("blob " + strconv.Itoa(len(text)) + "\x00"))
	blob.Write(text)
	sum := sha256.Sum256(text)
	return policy{uri: sourceattest.RepositoryURI(repo) + "/blob/" + cf.CommitSHA + "/" + gh.ConfigPath,
		digest: map[string]string{"gitBlob": hex.EncodeToString(blob.Sum(nil)), "sha256": hex.EncodeToString(sum[:])}}, ""
}
