package demo

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

var (
	integratedSHA = strings.Repeat("6c", 20)
	unitCertSum   = strings.Repeat("2b", 32)
)

// sampleIncrement is a medium increment certificate of milestone 1 at
// integratedSHA, shaped as the happy story's: story #1 certified, story
// #2 done by the owner's closure, a demonstration.
func sampleIncrement() incrementrules.Certificate {
	return incrementrules.Certificate{SchemaVersion: incrementrules.SchemaVersion, Kind: incrementrules.Kind, Repository: repoName,
		Milestone: 1, Title: "M1 — CSV export", RiskTier: "medium", IntegratedSha: integratedSHA,
		Stories:        []incrementrules.CertStory{{Unit: 1, Risk: "medium", MergeSha: integratedSHA, CertificateSha256: unitCertSum}, {Unit: 2, Risk: "low"}},
		ReadbackRunIds: []string{"1190"}, ReadbackRuns: []certificate.Run{{ID: "1190", Workflow: "ci"}},
		Demonstration: &incrementrules.DemoRecord{Criterion: criterion, CommentID: 1223, Evidence: "run 1214"}}
}

// incrementRun is the App's aepgate/increment run carrying incrementJSON,
// as the fake returns it.
func incrementRun(t *testing.T) (ghfake.CheckRun, string) {
	t.Helper()
	raw, err := sampleIncrement().Canonical()
	if err != nil {
		t.Fatal(err)
	}
	sum := certificate.FileFingerprint(raw)
	r := checks.IncrementCertificateRun(integratedSHA, raw, sum)
	if _, rs := checks.VerifyIncrementRun(r); len(rs) > 0 {
		t.Fatalf("the sample certificate is refused: %v", rs)
	}
	return ghfake.CheckRun{ID: 1225, AppID: appID, Name: r.Name, HeadSHA: r.HeadSHA, ExternalID: r.ExternalID, Status: string(r.Status),
		Conclusion: string(r.Conclusion), Title: r.Title, Summary: r.Summary}, sum
}

// TestVerifyIncrement: the App's certificate of the milestone verifies;
// a missing run, one by another App, one of another milestone, an edited
// certificate and a run that did not succeed are refused.
func TestVerifyIncrement(t *testing.T) {
	good, sum := incrementRun(t)
	edit := func(f func(*ghfake.CheckRun)) *ghfake.CheckRun { r := good; f(&r); return &r }
	tests := []struct {
		name      string
		run       *ghfake.CheckRun
		milestone int
		wantErr   string
	}{
		{"the App's certificate", &good, 1, ""},
		{"no run", nil, 1, "no aepgate/increment run"},
		{"another App's run", edit(func(r *ghfake.CheckRun) { r.AppID = 7 }), 1, "written by app 7"},
		{"another milestone", &good, 2, "of milestone 1, want 2"},
		{"certificate edited", edit(func(r *ghfake.CheckRun) { r.Summary = strings.Replace(r.Summary, `"unit":2`, `"unit":3`, 1) }), 1, checks.TokenIncrementSummarySum},
		{"not success", edit(func(r *ghfake.CheckRun) { r.Conclusion = "neutral" }), 1, checks.TokenIncrementConclusion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := verifyIncrement(tt.run, integratedSHA, tt.milestone)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got, want := []string{v.SHA256, v.Bound.IntegratedSha, v.Bound.Stories[0].CertificateSha256}, []string{sum, integratedSHA, unitCertSum}; !cmp.Equal(got, want) {
					t.Errorf("view (-got +want):\n%s", cmp.Diff(got, want))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("verifyIncrement = %v, want an error saying %q", err, tt.wantErr)
			}
		})
	}
}

// TestDescribeIncrement pins what the fetch step says the certificate
// binds.
func TestDescribeIncrement(t *testing.T) {
	good, _ := incrementRun(t)
	v, err := verifyIncrement(&good, integratedSHA, 1)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "increment-detail.golden"), []byte(describeIncrement(v)+"\n"))
}
