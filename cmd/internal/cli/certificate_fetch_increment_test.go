package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// incrementCert is a valid low increment certificate of milestone 3 at sha.
func incrementCert(t *testing.T, sha string) ([]byte, string) {
	t.Helper()
	c := incrementrules.Certificate{SchemaVersion: incrementrules.SchemaVersion, Kind: incrementrules.Kind, Repository: "acme/widgets", Milestone: 3, Title: "M3",
		RiskTier: "low", Stories: []incrementrules.CertStory{{Unit: 7, Risk: "low", MergeSha: sha}}, IntegratedSha: sha,
		ReadbackRunIds: []string{"900"}, ReadbackRuns: []certificate.Run{{ID: "900", Workflow: "ci"}}}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return raw, certificate.FileFingerprint(raw)
}

func TestCertificateFetchIncrement(t *testing.T) {
	tests := []struct {
		name    string
		post    func(w certWorld, run checks.Run)
		extra   []string
		code    int
		token   string
		printed bool
	}{
		{"the App's certificate", func(w certWorld, run checks.Run) { w.post(t, w.ours, run) }, []string{"--increment", "3"}, exitOK, "", true},
		{"another milestone", func(w certWorld, run checks.Run) { w.post(t, w.ours, run) }, []string{"--increment", "4"}, exitFindings, tokenIncrementMilestone, false},
		{"another App's run", func(w certWorld, run checks.Run) { w.post(t, w.theirs, run) }, []string{"--increment", "3"}, exitFindings, tokenIncrementUntrusted, false},
		{"none", func(certWorld, checks.Run) {}, []string{"--increment", "3"}, exitFindings, tokenIncrementMissing, false},
		{"a tampered title", func(w certWorld, run checks.Run) {
			run.Title = "increment certificate sha256:" + strings.Repeat("0", 64)
			w.post(t, w.ours, run)
		},
			[]string{"--increment", "3"}, exitFindings, checks.TokenIncrementTitle, false},
		{"with --attestation and an unreadable key file", func(certWorld, checks.Run) {}, []string{"--increment", "3", "--attestation", "--key", "none.pem"}, exitUsage, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCertWorld(t)
			raw, sum := incrementCert(t, w.sha)
			tt.post(w, checks.IncrementCertificateRun(w.sha, raw, sum))
			code, out, errOut := runCLI(t, w.args(append([]string{"--app-id", "777"}, tt.extra...)...)...)
			if code != tt.code || !strings.Contains(errOut, tt.token) {
				t.Fatalf("exit %d, want %d with %q\nstderr %s", code, tt.code, tt.token, errOut)
			}
			if tt.printed != (out == string(raw)) {
				t.Errorf("stdout %q, want the certificate printed: %v", out, tt.printed)
			}
		})
	}
}

// TestCertificateFetchIncrementTrustsOnlyTheApp: another App's run is
// refused; the negative control trusts any writer and accepts it.
func TestCertificateFetchIncrementTrustsOnlyTheApp(t *testing.T) {
	w := newCertWorld(t)
	raw, sum := incrementCert(t, w.sha)
	w.post(t, w.theirs, checks.IncrementCertificateRun(w.sha, raw, sum))
	runs, err := gh.ListCheckRunsNamed(t.Context(), w.f.Client(w.f.UserToken("reader")), "acme", "widgets", w.sha, checks.NameIncrement)
	if err != nil {
		t.Fatal(err)
	}
	app := appIdentity{id: certAppID}
	if _, _, rs := judgeIncrement(runs, app.wrote, 3); len(rs) == 0 {
		t.Fatal("another App's increment certificate was trusted")
	}
	if _, body, rs := judgeIncrement(runs, func(gh.CheckRunRecord) bool { return true }, 3); len(rs) != 0 || !json.Valid(body) {
		t.Errorf("negative control: trusting any writer should accept it, got %v", rs)
	}
}
