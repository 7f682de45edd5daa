package checks

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// certSHA is the merge commit the sample certificate names.
const certSHA = "fedcba9876543210fedcba9876543210fedcba98"

// sampleCertificate returns the canonical JSON and SHA-256 of a valid
// certificate for a merge at mergeSha; project lets a test put characters
// a renderer must survive into it.
func sampleCertificate(t testing.TB, mergeSha, project string) ([]byte, string) {
	t.Helper()
	c := certificate.Certificate{
		SchemaVersion: certificate.SchemaVersion, Project: project, Repository: "acme/widgets", PullRequest: 42, WorkUnit: "7",
		CandidateSha: strings.Repeat("0a", 20), AuditedSha: strings.Repeat("0a", 20), AuditorSessionID: "auditor-bot", AuditReviewID: 9001,
		AuditVerdict: "PASS", RequiredCiRunIds: []string{"1001"}, RequiredCiRuns: []certificate.Run{{ID: "1001", Workflow: "ci"}},
		RequiredCiAllSuccess: true, MergeSha: mergeSha, MergedMainRunIds: []string{"2001"},
		MergedMainRuns: []certificate.Run{{ID: "2001", Workflow: "ci"}}, MergedMainAllSuccess: true, HeadUnchanged: true,
	}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	return raw, sum
}

func TestCertificateRunGolden(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	run := CertificateRun(certSHA, raw, sum)
	golden.CheckString(t, filepath.Join("testdata", "certificate.golden"), dump(run))
	if err := Validate(Fit(run)); err != nil {
		t.Errorf("rendered run is invalid: %v", err)
	}
	if diff := cmp.Diff(run, Fit(run)); diff != "" {
		t.Errorf("Fit changes the run (-rendered +fitted):\n%s", diff)
	}
	if run.ExternalID != "sha256:"+sum || !strings.Contains(run.Title, sum) {
		t.Errorf("title %q, external_id %q: want both to carry %s", run.Title, run.ExternalID, sum)
	}
}

// TestCertificateRoundTrip reads back what CertificateRun renders, also for
// JSON holding backtick fences and non-ASCII text.
func TestCertificateRoundTrip(t *testing.T) {
	for _, project := range []string{"demo", "a ``` b ```` c", "`", "Zürich 🚀", "</details> | pipe"} {
		raw, sum := sampleCertificate(t, certSHA, project)
		run := CertificateRun(certSHA, raw, sum)
		got, rs := VerifyCertificateRun(run)
		if len(rs) != 0 || string(got) != string(raw) {
			t.Errorf("project %q: got %s, refusals %v; want the canonical JSON back, no refusals", project, got, rs)
		}
		if res := certificate.Validate(got); !res.Valid {
			t.Errorf("project %q: read-back certificate is invalid: %v", project, res.Errors)
		}
	}
}

func TestCertificateFromSummaryStrict(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	good := CertificateRun(certSHA, raw, sum).Summary
	body := string(raw)
	tests := []struct {
		name    string
		summary string
	}{
		{"empty", ""},
		{"no heading", strings.TrimPrefix(good, certificateHeading)},
		{"text after the block", good + "\nmore\n"},
		{"no final newline", strings.TrimSuffix(good, "\n")},
		{"second block", good + "```json\n{}\n```\n"},
		{"other info string", strings.Replace(good, "```json\n", "```js\n", 1)},
		{"two lines", strings.Replace(good, body, body+"\n"+body, 1)},
		{"empty block", strings.Replace(good, body, "", 1)},
		{"header edited", strings.Replace(good, "canonical JSON", "canonical json", 1)},
		{"header names another sum", strings.Replace(good, sum, strings.Repeat("0", 64), 1)},
		{"json edited under the header's sum", strings.Replace(good, `"demo"`, `"dem0"`, 1)},
		{"CRLF", strings.ReplaceAll(good, "\n", "\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := CertificateFromSummary(tt.summary); err == nil {
				t.Errorf("read %s from a summary that is not the layout", got)
			}
		})
	}
	if got, err := CertificateFromSummary(good); err != nil || string(got) != body {
		t.Errorf("good summary: %s, %v", got, err)
	}
}

func TestVerifyCertificateRun(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	other, otherSum := sampleCertificate(t, strings.Repeat("1", 40), "demo")
	spaced := strings.Replace(string(raw), ",", ", ", 1)
	tests := []struct {
		name string
		run  func(r *Run)
		want []string
	}{
		{"valid", func(*Run) {}, []string{}},
		{"title names another sum", func(r *Run) { r.Title = CertificateTitle(otherSum) }, []string{TokenCertificateTitle}},
		{"external_id names another sum", func(r *Run) { r.ExternalID = CertificateExternalID(otherSum) }, []string{TokenCertificateExternalID}},
		{"external_id without prefix", func(r *Run) { r.ExternalID = sum }, []string{TokenCertificateExternalID}},
		{"summary swapped, title and id kept", func(r *Run) { r.Summary = CertificateRun(certSHA, other, otherSum).Summary },
			[]string{TokenCertificateExternalID, TokenCertificateMergeSha, TokenCertificateTitle}},
		{"swapped consistently, on another commit", func(r *Run) { *r = CertificateRun(certSHA, other, otherSum) }, []string{TokenCertificateMergeSha}},
		{"json tampered", func(r *Run) { r.Summary = strings.Replace(r.Summary, `"2001"`, `"2002"`, 2) },
			[]string{TokenCertificateExternalID, TokenCertificateSummarySum, TokenCertificateTitle}},
		{"header names another sum", func(r *Run) { r.Summary = CertificateRun(certSHA, raw, otherSum).Summary }, []string{TokenCertificateSummarySum}},
		{"header edited", func(r *Run) { r.Summary = strings.Replace(r.Summary, "Only", "Anyone", 1) }, []string{TokenCertificateSummary}},
		{"not canonical, hashed as given", func(r *Run) { *r = CertificateRun(certSHA, []byte(spaced), sha256Hex(spaced)) }, []string{TokenCertificateNotCanonical}},
		{"failure conclusion", func(r *Run) { r.Conclusion = ConclusionFailure }, []string{TokenCertificateConclusion}},
		{"in progress", func(r *Run) { r.Status, r.Conclusion = StatusInProgress, "" }, []string{TokenCertificateConclusion}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := CertificateRun(certSHA, raw, sum)
			tt.run(&run)
			got, rs := VerifyCertificateRun(run)
			if diff := cmp.Diff(tt.want, refusal.Tokens(rs)); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
			if len(rs) == 0 && string(got) != string(raw) {
				t.Errorf("accepted run carries %s, want %s", got, raw)
			}
		})
	}
}

// TestCertificateNegativeControls removes each rule in turn and shows that
// the tampering it stops is then accepted.
func TestCertificateNegativeControls(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	other, otherSum := sampleCertificate(t, strings.Repeat("1", 40), "demo")
	spaced := strings.Replace(string(raw), ",", ", ", 1)
	tests := []struct {
		rule     certificateRule
		tampered Run
	}{
		{ruleCertificateConclusion, withConclusion(CertificateRun(certSHA, raw, sum), ConclusionNeutral)},
		{ruleCertificateCanonical, CertificateRun(certSHA, []byte(spaced), sha256Hex(spaced))},
		{ruleCertificateSummarySum, withSummary(CertificateRun(certSHA, raw, sum), CertificateRun(certSHA, raw, otherSum).Summary)},
		{ruleCertificateTitle, withTitle(CertificateRun(certSHA, raw, sum), CertificateTitle(otherSum))},
		{ruleCertificateExternalID, withExternalID(CertificateRun(certSHA, raw, sum), CertificateExternalID(otherSum))},
		{ruleCertificateMergeSha, CertificateRun(certSHA, other, otherSum)},
	}
	for _, tt := range tests {
		name := runtime.FuncForPC(reflect.ValueOf(tt.rule).Pointer()).Name()
		t.Run(name[strings.LastIndex(name, ".")+1:], func(t *testing.T) {
			if _, rs := verifyCertificateRun(tt.tampered, certificateRules()); len(rs) == 0 {
				t.Fatal("the tampered run passes with every rule")
			}
			if _, rs := verifyCertificateRun(tt.tampered, without(certificateRules(), tt.rule)); len(rs) != 0 {
				t.Errorf("with the rule removed the tampered run is still refused: %v", rs)
			}
		})
	}
}

func without(rules []certificateRule, drop certificateRule) []certificateRule {
	var out []certificateRule
	for _, r := range rules {
		if reflect.ValueOf(r).Pointer() != reflect.ValueOf(drop).Pointer() {
			out = append(out, r)
		}
	}
	return out
}

func withConclusion(r Run, c Conclusion) Run { r.Conclusion = c; return r }
func withTitle(r Run, s string) Run          { r.Title = s; return r }
func withExternalID(r Run, s string) Run     { r.ExternalID = s; return r }
func withSummary(r Run, s string) Run        { r.Summary = s; return r }

func FuzzCertificateFromSummary(f *testing.F) {
	raw, sum := sampleCertificate(f, certSHA, "demo")
	f.Add(CertificateRun(certSHA, raw, sum).Summary)
	f.Add(certificateHeading + "```json\n{}\n```\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, summary string) {
		got, err := CertificateFromSummary(summary)
		if err != nil {
			return
		}
		if want := CertificateRun(certSHA, got, sha256Hex(string(got))).Summary; want != summary {
			t.Errorf("accepted a summary that is not the rendering of its block:\n%q\nwant\n%q", summary, want)
		}
	})
}

func FuzzVerifyCertificateRun(f *testing.F) {
	raw, sum := sampleCertificate(f, certSHA, "demo")
	good := CertificateRun(certSHA, raw, sum)
	f.Add(good.Title, good.ExternalID, good.Summary)
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, title, externalID, summary string) {
		run := Run{Name: NameCertificate, HeadSHA: certSHA, Conclusion: ConclusionSuccess, Title: title, ExternalID: externalID, Summary: summary}
		got, rs := VerifyCertificateRun(run)
		if len(rs) > 0 {
			return
		}
		if want := CertificateRun(certSHA, got, sha256Hex(string(got))); !reflect.DeepEqual(run, want) {
			t.Errorf("accepted a run that is not the rendering of its certificate:\n%+v\nwant\n%+v", run, want)
		}
	})
}

// CertificateFromSummary (the tests' reader of parseCertificateSummary,
// which VerifyCertificateRun uses) returns the canonical JSON a certificate run's
// summary holds. It is strict: the summary must be exactly what
// CertificateRun renders for those bytes and their SHA-256 (same header,
// one fenced json block holding one non-empty line and nothing after it),
// so an edited header or block, a second block or text after the block is
// an error. It does not check that the bytes are valid or canonical JSON.
func CertificateFromSummary(summary string) ([]byte, error) {
	body, headerSum, err := parseCertificateSummary(summary)
	if err != nil {
		return nil, err
	}
	if sum := sha256Hex(body); headerSum != sum {
		return nil, fmt.Errorf("certificate summary: the header names SHA-256 %s, the json block's is %s", headerSum, sum)
	}
	return []byte(body), nil
}
