package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	intoto "github.com/in-toto/attestation/go/v1"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceattest"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// TestCertificateStatementEndToEnd: the App certifies a merge on the fake
// GitHub with a signing key; certificate fetch --statement vsa and
// --statement coverage return its statements' envelopes, which certificate
// verify accepts for the repository and commit (and --level), and refuses
// for a fork, for a level the VSA does not name, and with the key the App
// does not use.
func TestCertificateStatementEndToEnd(t *testing.T) {
	signer := appkit.Signer(t, 1)
	w := appkit.NewReadbackWorldWith(t, appkit.ReadbackYAML, nil, func(o *app.Options) { o.Signer = signer })
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	dir := t.TempDir()
	set, _ := attest.Keyring{signer.Public()}.JWKS()
	write(t, dir, "keys.jwks", mustJSON(t, set))
	strangers, _ := attest.Keyring{fetchSigner(t, 9).Public()}.JWKS()
	write(t, dir, "strangers.jwks", mustJSON(t, strangers))
	write(t, dir, "token", []byte(w.F.UserToken("reader")+"\n"))
	jwks := filepath.Join(dir, "keys.jwks")
	fetch := func(kind string) []byte {
		t.Helper()
		code, out, errOut := runCLI(t, "certificate", "fetch", "--repo", "acme/widgets", "--sha", merge, "--token-file", filepath.Join(dir, "token"),
			"--github-url", w.F.URL(), "--app-id", strconv.Itoa(appkit.AppID), "--statement", kind, "--jwks", jwks)
		if code != 0 || !strings.Contains(errOut, kind+" statement: signed by key "+signer.KeyID()) {
			t.Fatalf("fetch --statement %s: exit %d\n%s", kind, code, errOut)
		}
		write(t, dir, kind+".dsse.json", []byte(out))
		return []byte(out)
	}
	fetch(checks.StatementCoverage)
	fetch(checks.StatementVSA)
	tests := []struct {
		name    string
		args    []string
		code    int
		wantOut string
		wantErr string
	}{
		{"vsa for its repository, commit and level", []string{"vsa.dsse.json", "--repo", "acme/widgets", "--sha", merge, "--level", sourceattest.TwoPartyReviewed}, 0, `"SLSA_SOURCE_TWO_PARTY_REVIEWED"`, "no revocation list"},
		{"coverage for its repository", []string{"coverage.dsse.json", "--repo", "acme/widgets", "--sha", merge}, 0, `"class":"identity"`, ""},
		{"vsa without --repo", []string{"vsa.dsse.json"}, 0, `"repository"`, "the repository was not checked"},
		{"vsa for a fork", []string{"vsa.dsse.json", "--repo", "mallory/widgets"}, 1, "", "want \"https://github.com/mallory/widgets/commit/"},
		{"coverage for a fork", []string{"coverage.dsse.json", "--repo", "mallory/widgets"}, 1, "", "mallory/widgets"},
		{"vsa for another commit", []string{"vsa.dsse.json", "--sha", strings.Repeat("0", 40)}, 1, "", "subject commit"},
		{"a level the vsa does not name", []string{"vsa.dsse.json", "--level", "SLSA_SOURCE_LEVEL_3"}, 1, "", "lack SLSA_SOURCE_LEVEL_3"},
		{"--level with a coverage statement", []string{"coverage.dsse.json", "--level", sourceattest.SourceLevel1}, 2, "", "--level applies to a VSA"},
		{"--story with a statement", []string{"vsa.dsse.json", "--story", filepath.Join(dir, "coverage.dsse.json")}, 2, "", "--story applies to an increment"},
		{"another App's keys", []string{"vsa.dsse.json", "--jwks", filepath.Join(dir, "strangers.jwks")}, 1, "", attest.TokenUnknownKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"certificate", "verify"}, tt.args...)
			args[2] = filepath.Join(dir, args[2])
			if !strings.Contains(strings.Join(tt.args, " "), "--jwks") {
				args = append(args, "--jwks", jwks)
			}
			code, out, errOut := runCLI(t, args...)
			if code != tt.code || !strings.Contains(strings.ReplaceAll(out, " ", ""), tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, want %d (stdout %q, stderr %q):\n%s\n%s", code, tt.code, tt.wantOut, tt.wantErr, out, errOut)
			}
		})
	}
}

// statementRun is the certificate run of raw signed by s with both
// statements, which name the envelope named (nil: the run's own).
func statementRun(t *testing.T, s *attest.Signer, head string, raw []byte, sum string, named []byte) checks.Run {
	t.Helper()
	r := signedRun(t, s, head, raw, sum)
	unit, _ := checks.AttestationFromText(r.Text)
	if named == nil {
		named = unit
	}
	d, err := attest.EnvelopeDigest(named)
	if err != nil {
		t.Fatal(err)
	}
	ref := []sourceattest.Attestation{{URI: "u", Digest: map[string]string{"sha256": d}}}
	audited := strings.Repeat("ab", 20)
	tree := strings.Repeat("cd", 20)
	cov, err := sourceattest.NewCoverage("acme/widgets", coverage.Observation{AuditedHead: audited, AuditBase: audited, Shipped: head, ShippedParents: []string{audited},
		Onto: audited, AuditedTree: tree, ShippedTree: tree}, ref)
	if err != nil {
		t.Fatal(err)
	}
	vsa, err := sourceattest.NewVSA(sourceattest.VSAFacts{Repository: "acme/widgets", Revision: head, Verifier: "https://aepgate.dev/app", TimeVerified: time.Unix(1767225600, 0),
		PolicyURI: "https://github.com/acme/widgets/blob/" + head + "/.github/aepgate.yml", PolicyDigest: map[string]string{"gitBlob": tree},
		Inputs: ref, Certificate: raw, Coverage: coverage.Identity})
	if err != nil {
		t.Fatal(err)
	}
	envs := map[string][]byte{}
	for kind, st := range map[string]*intoto.Statement{"coverage": cov, "vsa": vsa} {
		e, err := sourceattest.Sign(s, st)
		if err != nil {
			t.Fatal(err)
		}
		envs[kind] = mustJSON(t, e)
	}
	return checks.WithStatements(r, envs["coverage"], envs["vsa"], s.KeyID())
}

// TestCertificateFetchStatement: --statement reads the statement of the
// App's run and verifies it; a run without statements, a statement that
// does not name the run's certificate envelope, another App's key, and
// bad usage are refused.
func TestCertificateFetchStatement(t *testing.T) {
	ours, stranger := fetchSigner(t, 1), fetchSigner(t, 2)
	dir := t.TempDir()
	set, _ := attest.Keyring{ours.Public()}.JWKS()
	write(t, dir, "keys.jwks", mustJSON(t, set))
	jwks := filepath.Join(dir, "keys.jwks")
	tests := []struct {
		name    string
		run     func(w certWorld, raw []byte, sum string) checks.Run
		args    []string
		code    int
		wantErr string
	}{
		{"vsa", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, ours, w.sha, raw, sum, nil)
		}, []string{"--statement", "vsa", "--jwks", jwks}, 0, "vsa statement: signed by key " + ours.KeyID()},
		{"coverage", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, ours, w.sha, raw, sum, nil)
		}, []string{"--statement", "coverage", "--jwks", jwks}, 0, "coverage statement: signed by key"},
		{"a run without statements", func(w certWorld, raw []byte, sum string) checks.Run { return signedRun(t, ours, w.sha, raw, sum) }, []string{"--statement", "vsa", "--jwks", jwks}, 1, "no standard statements"},
		{"a statement naming another certificate envelope", func(w certWorld, raw []byte, sum string) checks.Run {
			other, osum := cert(t, w.sha, func(c *certificate.Certificate) { c.AuditorSessionID = "someone" })
			return statementRun(t, ours, w.sha, raw, sum, mustEnvelope(t, signedRun(t, ours, w.sha, other, osum)))
		}, []string{"--statement", "vsa", "--jwks", jwks}, 1, "does not name the run's certificate envelope"},
		{"signed by a stranger's key", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, stranger, w.sha, raw, sum, nil)
		}, []string{"--statement", "coverage", "--jwks", jwks}, 1, attest.TokenUnknownKey},
		{"no keys", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, ours, w.sha, raw, sum, nil)
		}, []string{"--statement", "vsa"}, 2, "--statement needs the trusted keys"},
		{"an unknown kind", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, ours, w.sha, raw, sum, nil)
		}, []string{"--statement", "slsa", "--jwks", jwks}, 2, "want coverage or vsa"},
		{"with --increment", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, ours, w.sha, raw, sum, nil)
		}, []string{"--statement", "vsa", "--increment", "3", "--jwks", jwks}, 2, "does not apply with --increment"},
		{"with --attestation", func(w certWorld, raw []byte, sum string) checks.Run {
			return statementRun(t, ours, w.sha, raw, sum, nil)
		}, []string{"--statement", "vsa", "--attestation", "--jwks", jwks}, 2, "none of the others can be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCertWorld(t)
			raw, sum := cert(t, w.sha, nil)
			w.post(t, w.ours, tt.run(w, raw, sum))
			code, out, errOut := runCLI(t, w.args(append([]string{"--app-id", "777"}, tt.args...)...)...)
			if code != tt.code || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.code, tt.wantErr, errOut)
			}
			if code == 0 {
				if _, err := verifyStatement([]byte(strings.TrimSpace(out)), attest.Keyring{ours.Public()}, sourceverify.Want{Repository: "acme/widgets", SHA: w.sha}); err != nil {
					t.Errorf("printed envelope does not verify: %v\n%s", err, out)
				}
			}
		})
	}
}

func mustEnvelope(t *testing.T, r checks.Run) []byte {
	t.Helper()
	env, err := checks.AttestationFromText(r.Text)
	if err != nil {
		t.Fatal(err)
	}
	return env
}
