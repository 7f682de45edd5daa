package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The App that writes certificates in these tests, and another one.
const (
	certAppID   = 777
	certAppSlug = "app-777"
	otherAppID  = 888
)

// certWorld is a repository with a merge commit, the aepgate App and
// another App installed on it, and a reader's token file.
type certWorld struct {
	f         *ghfake.Fake
	repo      *ghfake.Repo
	sha       string
	tokenFile string
	ours      *gh.CheckPublisher
	theirs    *gh.CheckPublisher
}

func newCertWorld(t *testing.T) certWorld {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.Commit("main", "Merge pull request #42", map[string]string{"a.go": "package a\n"})
	w := certWorld{f: f, repo: repo, sha: sha, tokenFile: filepath.Join(t.TempDir(), "token")}
	if err := os.WriteFile(w.tokenFile, []byte(f.UserToken("reader")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ours = w.publisher(f.App(certAppID, ghfake.NewAppKey()), repo)
	w.theirs = w.publisher(f.App(otherAppID, ghfake.NewAppKey()), repo)
	return w
}

func (w certWorld) publisher(app *ghfake.App, repo *ghfake.Repo) *gh.CheckPublisher {
	inst := app.Install("acme", ghfake.Permissions{"checks": "write"}, repo)
	p := gh.NewCheckPublisher(w.f.Client(inst.Token()), app.ID)
	p.WritePause = 0
	return p
}

// post writes run with p, or fails the test.
func (w certWorld) post(t *testing.T, p *gh.CheckPublisher, run checks.Run) {
	t.Helper()
	if _, err := p.PublishNew(context.Background(), "acme", "widgets", run); err != nil {
		t.Fatal(err)
	}
}

// args is the fetch command line for the world's commit, plus extra.
func (w certWorld) args(extra ...string) []string {
	return append([]string{"certificate", "fetch", "--repo", "acme/widgets", "--sha", w.sha,
		"--token-file", w.tokenFile, "--github-url", w.f.URL()}, extra...)
}

// cert returns the canonical JSON and SHA-256 of a valid certificate for a
// merge at mergeSha; edit changes it first.
func cert(t *testing.T, mergeSha string, edit func(*certificate.Certificate)) ([]byte, string) {
	t.Helper()
	c := certificate.Certificate{
		SchemaVersion: certificate.SchemaVersion, Project: "widgets", Repository: "acme/widgets", PullRequest: 42, WorkUnit: "7",
		CandidateSha: strings.Repeat("ab", 20), AuditedSha: strings.Repeat("ab", 20), AuditorSessionID: "auditor-bot",
		AuditReviewID: 9001, AuditVerdict: "PASS", RequiredCiRunIds: []string{"1001"}, RequiredCiRuns: []certificate.Run{{ID: "1001", Workflow: "ci"}},
		RequiredCiAllSuccess: true, MergeSha: mergeSha, MergedMainRunIds: []string{"2001"},
		MergedMainRuns: []certificate.Run{{ID: "2001", Workflow: "ci"}}, MergedMainAllSuccess: true, HeadUnchanged: true,
	}
	if edit != nil {
		edit(&c)
	}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return raw, certificate.FileFingerprint(raw)
}

func TestCertificateFetchPrintsTheAppsCertificate(t *testing.T) {
	w := newCertWorld(t)
	raw, sum := cert(t, w.sha, nil)
	w.post(t, w.theirs, checks.Run{Name: checks.NameCertificate, HeadSHA: w.sha, Conclusion: checks.ConclusionFailure, Title: "x", Summary: "y"})
	w.post(t, w.ours, checks.CertificateRun(w.sha, raw, sum))
	w.post(t, w.theirs, checks.Run{Name: checks.NameCertificate, HeadSHA: w.sha, Conclusion: checks.ConclusionFailure, Title: "x", Summary: "y"})
	for _, who := range [][]string{
		{"--app-id", "777"}, {"--app-slug", certAppSlug}, {"--app-id", "777", "--app-slug", certAppSlug},
	} {
		w.f.ResetLog()
		code, out, errOut := runCLI(t, w.args(who...)...)
		if code != 0 || out != string(raw) {
			t.Fatalf("%v: exit %d, stdout %q\nstderr: %s", who, code, out, errOut)
		}
		if certificate.FileFingerprint([]byte(out)) != sum || !strings.Contains(errOut, "by app-777 (App ID 777), sha256 "+sum) {
			t.Errorf("%v: stdout's SHA-256 is not the run's %s, or stderr does not say so: %s", who, sum, errOut)
		}
		if n := len(w.f.Writes()); n != 0 || len(w.f.Requests()) != 1 {
			t.Errorf("%v: %d writes, %d requests; want 0 writes and 1 read:\n%s", who, n, len(w.f.Requests()), w.f.WriteLog())
		}
	}
}

func TestCertificateFetchRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, w certWorld)
		who   []string
		want  []string
	}{
		{"no run", func(*testing.T, certWorld) {}, []string{"--app-id", "777"}, []string{tokenCertificateMissing}},
		{"another App's run of the same name", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			w.post(t, w.theirs, checks.CertificateRun(w.sha, raw, sum))
		}, []string{"--app-id", "777"}, []string{tokenCertificateUntrusted}},
		{"GitHub Actions' run of the same name", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			actions := gh.NewCheckPublisher(w.f.Client(w.f.ActionsToken(w.repo, ghfake.Permissions{"checks": "write"})), 0)
			w.post(t, actions, checks.CertificateRun(w.sha, raw, sum))
		}, []string{"--app-slug", certAppSlug}, []string{tokenCertificateUntrusted}},
		{"the App's ID with another slug", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			w.post(t, w.ours, checks.CertificateRun(w.sha, raw, sum))
		}, []string{"--app-id", "777", "--app-slug", "app-888"}, []string{tokenCertificateUntrusted}},
		{"tampered summary", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			run := checks.CertificateRun(w.sha, raw, sum)
			run.Summary = strings.Replace(run.Summary, `"2001"`, `"1001"`, 2)
			w.post(t, w.ours, run)
		}, []string{"--app-id", "777"}, []string{checks.TokenCertificateExternalID, checks.TokenCertificateSummarySum, checks.TokenCertificateTitle, "reused-ci-as-readback"}},
		{"summary header edited", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			run := checks.CertificateRun(w.sha, raw, sum)
			run.Summary = strings.Replace(run.Summary, "Only the aepgate App", "Any App", 1)
			w.post(t, w.ours, run)
		}, []string{"--app-id", "777"}, []string{checks.TokenCertificateSummary}},
		{"title names another hash", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			run := checks.CertificateRun(w.sha, raw, sum)
			run.Title = checks.CertificateTitle(strings.Repeat("0", 64))
			w.post(t, w.ours, run)
		}, []string{"--app-id", "777"}, []string{checks.TokenCertificateTitle}},
		{"external_id names another hash", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			run := checks.CertificateRun(w.sha, raw, sum)
			run.ExternalID = checks.CertificateExternalID(strings.Repeat("0", 64))
			w.post(t, w.ours, run)
		}, []string{"--app-id", "777"}, []string{checks.TokenCertificateExternalID}},
		{"certificate of another merge", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, strings.Repeat("1", 40), nil)
			w.post(t, w.ours, checks.CertificateRun(w.sha, raw, sum))
		}, []string{"--app-id", "777"}, []string{checks.TokenCertificateMergeSha}},
		{"invalid certificate", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, func(c *certificate.Certificate) { c.AuditVerdict, c.UnresolvedGates = "FAIL", []string{"g1"} })
			w.post(t, w.ours, checks.CertificateRun(w.sha, raw, sum))
		}, []string{"--app-id", "777"}, []string{"audit-not-pass", "unresolved-gates"}},
		{"the newest of the App's runs counts", func(t *testing.T, w certWorld) {
			raw, sum := cert(t, w.sha, nil)
			w.post(t, w.ours, checks.CertificateRun(w.sha, raw, sum))
			w.post(t, w.ours, checks.Run{Name: checks.NameCertificate, HeadSHA: w.sha, ExternalID: "x", Conclusion: checks.ConclusionFailure, Title: "t", Summary: "s"})
		}, []string{"--app-id", "777"}, []string{checks.TokenCertificateConclusion, checks.TokenCertificateSummary}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCertWorld(t)
			tt.setup(t, w)
			code, out, errOut := runCLI(t, w.args(tt.who...)...)
			if code != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q; want exit 1 and nothing on stdout\nstderr: %s", code, out, errOut)
			}
			want := "error: certificate fetch: refused: " + strings.Join(tt.want, ", ") + "\n"
			if !strings.HasSuffix(errOut, want) {
				t.Errorf("stderr does not end %q:\n%s", want, errOut)
			}
			for _, tok := range tt.want {
				if !strings.Contains(errOut, ": "+tok+": expected ") {
					t.Errorf("stderr lacks an explanation of %s:\n%s", tok, errOut)
				}
			}
		})
	}
}

// TestCertificateFetchNamesTheForeignWriter: the refusal says who wrote the
// runs it found.
func TestCertificateFetchNamesTheForeignWriter(t *testing.T) {
	w := newCertWorld(t)
	raw, sum := cert(t, w.sha, nil)
	w.post(t, w.theirs, checks.CertificateRun(w.sha, raw, sum))
	_, _, errOut := runCLI(t, w.args("--app-slug", certAppSlug)...)
	if !strings.Contains(errOut, "saw only runs by app-888 (App ID 888)") {
		t.Errorf("stderr does not name the writer:\n%s", errOut)
	}
}

// TestCertificateFetchTrustNegativeControl judges another App's perfect
// certificate run: refused by App identity, accepted when any run of the
// name is trusted (the protection removed).
func TestCertificateFetchTrustNegativeControl(t *testing.T) {
	sha := strings.Repeat("c", 40)
	raw, sum := cert(t, sha, nil)
	run := checks.CertificateRun(sha, raw, sum)
	foreign := []gh.CheckRunRecord{{ID: 5, Name: run.Name, HeadSHA: sha, ExternalID: run.ExternalID, Status: "completed",
		Conclusion: "success", Title: run.Title, Summary: run.Summary, AppID: otherAppID, AppSlug: "app-888"}}
	got := judgeCertificate(foreign, appIdentity{id: certAppID, slug: certAppSlug}.wrote)
	if diff := cmp.Diff([]string{tokenCertificateUntrusted}, refusal.Tokens(got.refusals)); diff != "" || got.canonical != nil {
		t.Errorf("with the App check: tokens (-want +got):\n%s", diff)
	}
	byName := func(gh.CheckRunRecord) bool { return true }
	got = judgeCertificate(foreign, byName)
	if len(got.refusals) != 0 || string(got.canonical) != string(raw) {
		t.Errorf("trusting the name alone should accept the foreign run: %v", got.refusals)
	}
}

func TestAppIdentity(t *testing.T) {
	run := gh.CheckRunRecord{AppID: 777, AppSlug: "app-777"}
	tests := []struct {
		app  appIdentity
		want bool
	}{
		{appIdentity{}, false},
		{appIdentity{id: 777}, true},
		{appIdentity{slug: "app-777"}, true},
		{appIdentity{id: 777, slug: "app-777"}, true},
		{appIdentity{id: 778}, false},
		{appIdentity{slug: "App-777"}, false},
		{appIdentity{id: 777, slug: "app-888"}, false},
		{appIdentity{id: 888, slug: "app-777"}, false},
	}
	for _, tt := range tests {
		if got := tt.app.wrote(run); got != tt.want {
			t.Errorf("%+v wrote %+v = %v, want %v", tt.app, run, got, tt.want)
		}
	}
}
