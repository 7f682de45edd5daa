package appkit

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
)

// CertificateOn waits for the certificate on sha and returns it, validated.
func (w *ReadbackWorld) CertificateOn(t *testing.T, sha string) map[string]any {
	t.Helper()
	WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(sha, checks.NameCertificate) != nil })
	cr := w.Latest(sha, checks.NameCertificate)
	raw, refused := checks.VerifyCertificateRun(checks.Run{Name: cr.Name, HeadSHA: cr.HeadSHA, ExternalID: cr.ExternalID, Status: checks.Status(cr.Status),
		Conclusion: checks.Conclusion(cr.Conclusion), Title: cr.Title, Summary: cr.Summary})
	if len(refused) > 0 {
		t.Fatalf("certificate run refused: %v", refused)
	}
	v := certificate.Validate(raw)
	if !v.Valid {
		t.Fatalf("certificate invalid: %v\n%s", v.Errors, raw)
	}
	return v.Certificate
}

// ReadbackYAML requires the ci workflow for readback; olivia is the owner.
const ReadbackYAML = "version: 1\nowners: [olivia]\nrequired_workflows:\n  readback: [ci]\n"

// ReadbackWorld is a ghfake world whose App may read workflow runs
// (Actions: read), with one unit and an open pull request naming it whose
// head has a green ci run and a judged aepgate/gates.
type ReadbackWorld struct {
	*Live
	Unit *ghfake.Issue
	PR   *ghfake.PR
	CIID int64
	// skew moves the App's readback clock ahead of real time.
	Skew *atomic.Int64
}

// PassAudit is the audit record the tests hand in through the auditedSHA
// seam: a PASS by carol at the final head.
func PassAudit(_ context.Context, _, _ string, m *gh.MergedPull) (readback.Audit, error) {
	return readback.Audit{SHA: m.HeadSHA, Auditor: "carol", ReviewID: 77, Verdict: "PASS"}, nil
}

// NewReadbackWorld builds the world; edit changes the readback options after the defaults (a PASS audit at
// the final head, a clock that tests can move).
func NewReadbackWorld(t *testing.T, yaml string, edit func(*app.ReadbackSeams)) *ReadbackWorld {
	t.Helper()
	return NewReadbackWorldWith(t, yaml, edit, nil)
}

// NewReadbackWorldWith is NewReadbackWorld with the App's options changed
// by editApp (nil: unchanged).
func NewReadbackWorldWith(t *testing.T, yaml string, edit func(*app.ReadbackSeams), editApp func(*app.Options)) *ReadbackWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	skew := &atomic.Int64{}
	f := ghfake.New(t)
	ghApp := f.App(AppID, Key(t))
	repo := f.CreateRepo("acme/widgets")
	inst := ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write",
		"pull_requests": "write", "metadata": "read", "actions": "read", "attestations": "write"}, repo)
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": yaml})
	repo.Grant("olivia", "admin")
	o := Options(t, nil, "")
	o.GitHubURL = f.URL()
	o.Seams.Readback = app.ReadbackSeams{Audited: PassAudit, Now: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }}
	if edit != nil {
		edit(&o.Seams.Readback)
	}
	if editApp != nil {
		editApp(&o)
	}
	a, base := Start(t, o)
	f.SendWebhooks(base+"/webhook", Secret, ghApp)
	w := &ReadbackWorld{Live: &Live{F: f, Repo: repo, App: a, Base: base, Inst: inst, GHApp: ghApp}, Skew: skew}
	ms := repo.CreateMilestone("M", "")
	w.Unit = repo.OpenIssue("alice", "Unit", Contract("low", "product"), ghfake.InMilestone(ms))
	repo.Branch("work", "main")
	repo.Commit("work", "work", map[string]string{"work.go": "package x\n"})
	w.PR = repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #"+strconv.Itoa(w.Unit.Number()))
	WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return w.Latest(w.PR.Head(), checks.NameGates) != nil })
	w.CIID = repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: w.PR.Head(), Branch: "work", Event: "pull_request"}).ID()
	return w
}

// Latest is the newest check run called name on sha, or nil.
func (w *ReadbackWorld) Latest(sha, name string) *ghfake.CheckRun {
	return NewestRunOn(w.Repo, sha, name)
}

// Count is how many check runs called name are on sha.
func (w *ReadbackWorld) Count(sha, name string) int {
	n := 0
	for _, r := range w.Repo.CheckRuns(sha) {
		if r.Name == name {
			n++
		}
	}
	return n
}

// WaitReadback waits until aepgate/readback on sha is completed with
// conclusion want ("" waits for in_progress) and returns it.
func (w *ReadbackWorld) WaitReadback(t *testing.T, sha, want string) *ghfake.CheckRun {
	t.Helper()
	WaitFor(t, 10*time.Second, "aepgate/readback "+want, func() bool {
		r := w.Latest(sha, checks.NameReadback)
		return r != nil && r.Conclusion == want && (want != "" || r.Status == "in_progress")
	})
	return w.Latest(sha, checks.NameReadback)
}

// MainCI completes a ci run on main at sha.
func (w *ReadbackWorld) MainCI(sha, conclusion string) *ghfake.WorkflowRun {
	return w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: sha, Branch: "main", Event: "push", Conclusion: conclusion})
}

// Sweep runs the reconcile sweep once, as the periodic job does.
func (w *ReadbackWorld) Sweep(t *testing.T) {
	t.Helper()
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Labels are the unit issue's labels.
func (w *ReadbackWorld) Labels(t *testing.T) []string {
	t.Helper()
	is, _, err := w.F.Client(w.Inst.Token()).Issues.Get(context.Background(), "acme", "widgets", w.Unit.Number())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range is.Labels {
		out = append(out, l.GetName())
	}
	if is.GetState() != "open" {
		t.Errorf("the unit's issue is %s; the App never closes it", is.GetState())
	}
	return out
}

// WantRefused checks that run failed naming token and that no certificate
// is on sha.
func (w *ReadbackWorld) WantRefused(t *testing.T, sha string, run *ghfake.CheckRun, token string) {
	t.Helper()
	if run.Conclusion != "failure" || !strings.Contains(run.Summary, "`"+token+"`") {
		t.Errorf("readback %s, want failure naming %s:\n%s\n%s", run.Conclusion, token, run.Title, run.Summary)
	}
	time.Sleep(200 * time.Millisecond)
	if n := w.Count(sha, checks.NameCertificate); n != 0 {
		t.Errorf("%d certificates on a refused readback", n)
	}
}
