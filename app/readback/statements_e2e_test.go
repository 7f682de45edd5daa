package readback_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/internal/testkit/sigstorekit"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceattest"
)

// certificateLedger is the body of the newest aepgate/certificate ledger
// row.
func certificateLedger(t *testing.T, w *appkit.ReadbackWorld) map[string]any {
	t.Helper()
	var body string
	err := w.App.Store().SQL.QueryRowContext(context.Background(),
		`SELECT body FROM aepgate_ledger WHERE kind = ? ORDER BY seq DESC LIMIT 1`, "check_run:"+checks.NameCertificate).Scan(&body)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSignedStatements: a certified merge (the audited head merged
// unchanged) carries, beside the signed certificate, a coverage statement
// (identity) and an SLSA Source VSA naming SLSA_SOURCE_TWO_PARTY_REVIEWED,
// both verifying against the JWKS the App serves for this repository and
// commit, both naming the certificate's envelope by digest, and all three
// uploaded as attestations; Sigstore's verifier (verify.js, as in .ci/run)
// verifies both statements too. The VSA's policy is the config the
// readback was judged under, by URI and git blob digest.
func TestSignedStatements(t *testing.T) {
	signer := appkit.Signer(t, 1)
	w := appkit.NewReadbackWorldWith(t, appkit.ReadbackYAML, nil, func(o *app.Options) { o.Signer = signer })
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	text := w.Latest(merge, checks.NameCertificate).Text
	keys := appkit.FetchJWKS(t, w.Base)
	unit, err := checks.AttestationFromText(text)
	if err != nil {
		t.Fatal(err)
	}
	unitSum, err := attest.EnvelopeDigest(unit)
	if err != nil {
		t.Fatal(err)
	}
	want := sourceattest.Want{Repository: "acme/widgets", SHA: merge, Levels: []string{sourceattest.SourceLevel1, sourceattest.TwoPartyReviewed}}
	cov, err := checks.StatementFromText(text, checks.StatementCoverage)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	_, cp, err := sourceattest.VerifyCoverage(cov, keys, want)
	if err != nil {
		t.Fatalf("coverage statement: %v", err)
	}
	if cp.Class != coverage.Identity || len(cp.Reviews) != 1 || cp.Reviews[0].Digest["sha256"] != unitSum || cp.Reviewed.Head != w.PR.Head() {
		t.Errorf("coverage predicate %+v; want identity reviewing the certificate envelope %s", cp, unitSum)
	}
	vsa, err := checks.StatementFromText(text, checks.StatementVSA)
	if err != nil {
		t.Fatal(err)
	}
	covSum, _ := attest.EnvelopeDigest(cov)
	_, vp, err := sourceattest.VerifyVSA(vsa, keys, want)
	if err != nil {
		t.Fatalf("vsa: %v", err)
	}
	var inputs []string
	for _, in := range vp.GetInputAttestations() {
		inputs = append(inputs, in.GetDigest()["sha256"])
	}
	if !slices.Equal(inputs, []string{unitSum, covSum}) {
		t.Errorf("VSA inputs %v, want the certificate's and the coverage statement's envelopes %v", inputs, []string{unitSum, covSum})
	}
	if p := vp.GetPolicy(); !strings.HasPrefix(p.GetUri(), "https://github.com/acme/widgets/blob/") || !strings.HasSuffix(p.GetUri(), "/.github/aepgate.yml") ||
		p.GetDigest()["gitBlob"] != gitBlob(appkit.ReadbackYAML) {
		t.Errorf("VSA policy %v, want the config by URI and git blob %s", p, gitBlob(appkit.ReadbackYAML))
	}
	if _, _, err := sourceattest.VerifyVSA(vsa, keys, sourceattest.Want{Repository: "mallory/widgets", SHA: merge}); err == nil {
		t.Error("the VSA verified for a fork")
	}
	appkit.WaitFor(t, 5*time.Second, "three attestations", func() bool { return len(w.Repo.Attestations()) == 3 })
	for i, raw := range w.Repo.Attestations() {
		if sum, err := attest.EnvelopeDigest(raw); err != nil || sum != []string{unitSum, covSum, mustDigest(t, vsa)}[i] {
			t.Errorf("attestation %d: digest %s (%v)", i, sum, err)
		}
	}
	for _, env := range [][]byte{cov, vsa} {
		if out, err := sigstorekit.Verify(t, env, keys, merge); err != nil || !strings.Contains(out, "in acme/widgets") {
			t.Errorf("Sigstore's verifier: %v: %s", err, out)
		}
	}
	if got := certificateLedger(t, w)["statements"]; got == nil {
		t.Errorf("the certificate's ledger row does not say what was published")
	}
}

// TestStatementsOfAReplayedMerge: a merge commit onto a main that moved
// after the audit is certified once the readback's replay gives its tree
// (coverage replay), and its statements say so: the coverage statement's
// class is replay, the VSA is published beside it, the ledger records what
// was published, and all three envelopes are uploaded as attestations.
// (An observation that does not cover the merge withholds them:
// TestStatementsNeedCoverage.)
func TestStatementsOfAReplayedMerge(t *testing.T) {
	w := appkit.NewReadbackWorldWith(t, appkit.ReadbackYAML, nil, func(o *app.Options) { o.Signer = appkit.Signer(t, 1) })
	w.Repo.Commit("main", "meanwhile", map[string]string{"other.go": "package other\n"})
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	text := w.Latest(merge, checks.NameCertificate).Text
	if _, err := checks.AttestationFromText(text); err != nil {
		t.Fatalf("certificate envelope: %v", err)
	}
	if _, err := checks.StatementFromText(text, checks.StatementVSA); err != nil {
		t.Fatalf("no VSA for a merge whose coverage the replay showed: %v\n%s", err, text)
	}
	st, _ := certificateLedger(t, w)["statements"].(map[string]any)
	if got, _ := st["coverage"].(string); got != "replay" {
		t.Errorf("ledger statements = %v, want coverage replay", st)
	}
	appkit.WaitFor(t, 5*time.Second, "the three attestations", func() bool { return len(w.Repo.Attestations()) == 3 })
}

func mustDigest(t *testing.T, env []byte) string {
	t.Helper()
	s, err := attest.EnvelopeDigest(env)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// gitBlob is git's object name of a blob holding text.
func gitBlob(text string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00%s", len(text), text)
	return hex.EncodeToString(h.Sum(nil))
}
