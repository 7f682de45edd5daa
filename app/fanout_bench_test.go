package app_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// BenchmarkProjectHoldAPICalls: b.N open pull requests, each attempting a
// unit of its own, are judged; then the owner's project HOLD on the
// control issue has every one judged again (the fan-out). It reports the
// fan-out's GitHub reads and writes per pull request and per check run
// whose conclusion or text changed (run with -benchtime=100x).
func BenchmarkProjectHoldAPICalls(b *testing.B) {
	w := appkit.NewLiveOpts(b, true, nil)
	w.F.SetRateLimit(1<<30, 1<<30, 1<<30)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": appkit.GatesConfig})
	w.Repo.Grant("olivia", "admin")
	var prs []*ghfake.PR
	for i := range b.N {
		prs = append(prs, w.UnitPR(fmt.Sprintf("p%d", i)))
	}
	ctl := w.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
	appkit.WaitFor(b, 5*time.Minute, "every pull request judged", func() bool { return allGates(w, prs, "success") })
	w.Quiet(b)
	before := runTexts(w, prs)
	w.F.ResetLog()
	b.ResetTimer()
	ctl.Comment("olivia", "/aep hold release freeze")
	appkit.WaitFor(b, 10*time.Minute, "every pull request held", func() bool { return allGates(w, prs, "action_required") })
	w.Quiet(b)
	b.StopTimer()
	reads, writes := appkit.APICalls(w.F.Stats())
	changed := 0
	for k, v := range runTexts(w, prs) {
		if before[k] != v {
			changed++
		}
	}
	b.Logf("%d pull requests: %d reads, %d writes, %d check runs changed: %v", b.N, reads, writes, changed, w.F.Stats().ByRoute)
	b.ReportMetric(float64(reads)/float64(b.N), "reads/pr")
	b.ReportMetric(float64(writes)/float64(b.N), "writes/pr")
	b.ReportMetric(float64(writes)/float64(max(changed, 1)), "writes/changed-run")
	b.ReportMetric(0, "ns/op")
}

// allGates reports whether every pull request's newest gates run
// concluded conclusion.
func allGates(w *appkit.Live, prs []*ghfake.PR, conclusion string) bool {
	for _, pr := range prs {
		if r := appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates); r == nil || r.Conclusion != conclusion {
			return false
		}
	}
	return true
}

// runTexts is each pull request's newest check runs by name: conclusion,
// title, summary and text.
func runTexts(w *appkit.Live, prs []*ghfake.PR) map[string]string {
	out := map[string]string{}
	for _, pr := range prs {
		for _, r := range w.Repo.CheckRuns(pr.Head()) {
			out[fmt.Sprintf("%d %s", pr.Number(), r.Name)] = r.Conclusion + "\n" + r.Title + "\n" + r.Summary + "\n" + r.Text
		}
	}
	return out
}
