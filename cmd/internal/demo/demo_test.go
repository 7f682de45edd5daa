package demo

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// played caches one run per scenario: the browser test reads the report
// the scenario test wrote.
var played sync.Map // scenario name → *playedRun

type playedRun struct {
	once sync.Once
	res  *Result
	out  string
	took time.Duration
	err  error
}

// play runs scenario at fast speed once per test process.
func play(t *testing.T, scenario string) (*Result, string) {
	t.Helper()
	v, _ := played.LoadOrStore(scenario, &playedRun{})
	p := v.(*playedRun)
	p.once.Do(func() {
		p.out = filepath.Join(os.TempDir(), "aepgate-demo-test-"+scenario+"-"+randomHex(4))
		start := time.Now()
		p.res, p.err = Run(context.Background(), Options{Out: p.out, Scenario: scenario, Speed: Fast})
		p.took = time.Since(start)
	})
	if p.err != nil {
		t.Fatalf("demo %s: %v", scenario, p.err)
	}
	t.Logf("demo %s took %v; report in %s", scenario, p.took.Round(time.Millisecond), p.out)
	return p.res, p.out
}

// TestMain removes the reports the scenario tests wrote, and prints one
// line when tests skipped for want of Chromium (internal/testkit/skipline).
func TestMain(m *testing.M) {
	code := skipline.Run(m)
	played.Range(func(_, v any) bool {
		_ = os.RemoveAll(v.(*playedRun).out)
		return true
	})
	os.Exit(code)
}

// finalRuns maps "label name" to each watched commit's newest run's
// conclusion (or status while running).
func finalRuns(res *Result) map[string]string {
	out := map[string]string{}
	for _, c := range res.Commits {
		for _, r := range c.Runs {
			s := r.Conclusion
			if s == "" {
				s = r.Status
			}
			out[c.Label+" "+r.Name] = s
		}
	}
	return out
}

// TestScenarios plays each scenario at fast speed and checks its final
// state: every check run's conclusion, the certificate, no duplicated
// write, an intact ledger, the owner's board, the timeline.
func TestScenarios(t *testing.T) {
	tests := []struct {
		scenario string
		head     string // the pull request's last head
		refused  int    // steps refused on purpose
		// increment: the story completes increment M1 (its certificate on
		// the merge commit, the integrated one).
		increment bool
	}{
		{"happy", "PR head 3", 1, true},
		{"attacks", "PR head 2", 8, false},
		{"outage", "PR head 3", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			res, out := play(t, tt.scenario)
			if len(res.Problems) > 0 {
				t.Errorf("problems:\n  %s", strings.Join(res.Problems, "\n  "))
			}
			if got, want := len(res.Steps), scenarios[tt.scenario].steps; got != want {
				t.Errorf("%d steps played, want %d", got, want)
			}
			runs := finalRuns(res)
			for _, name := range []string{"aepgate/work-unit", "aepgate/gates", "aepgate/audit", "aepgate/merge"} {
				if got := runs[tt.head+" "+name]; got != "success" {
					t.Errorf("%s on %s = %q, want success", name, tt.head, got)
				}
			}
			for _, name := range []string{"aepgate/readback", "aepgate/certificate"} {
				if got := runs["merge commit "+name]; got != "success" {
					t.Errorf("%s on the merge commit = %q, want success", name, got)
				}
			}
			if _, err := certificateOf(res); err != nil {
				t.Error(err)
			}
			checkIncrement(t, res, tt.increment)
			if a := res.IncrementAttestation; tt.increment && (a == nil || !a.Verified) {
				t.Errorf("the signed increment certificate was not verified offline: %+v", a)
			}
			if !res.Ledger.Intact || len(res.Ledger.Rows) == 0 {
				t.Errorf("ledger: %s (%d rows)", res.Ledger.Verdict, len(res.Ledger.Rows))
			}
			if b := res.Board; b == nil || !b.Pinned || !strings.Contains(b.Body, "✅ certified") {
				t.Errorf("board = %+v, want a pinned board issue showing a certified story", b)
			}
			if n := len(res.Steps); n == 0 || !strings.Contains(res.Steps[n-1].Title, "owner's board: issue #4") {
				t.Errorf("the last step is not the owner's board (issue #4)")
			}
			refused := 0
			for _, s := range res.Steps {
				if s.Refused {
					refused++
					if s.Detail == "" {
						t.Errorf("refused step %d shows no refusal", s.N)
					}
				}
			}
			if refused != tt.refused {
				t.Errorf("%d refused steps, want %d", refused, tt.refused)
			}
			checkTimeline(t, out, res)
		})
	}
}

// certificateOf checks the report's certificate is canonical JSON naming
// the merge commit.
func certificateOf(res *Result) (map[string]any, error) {
	var c map[string]any
	if err := json.Unmarshal([]byte(res.Certificate), &c); err != nil {
		return nil, errors.New("no certificate JSON in the report: " + err.Error())
	}
	for _, cr := range res.Commits {
		if cr.Label == "merge commit" && c["mergeSha"] != cr.SHA {
			return nil, errors.New("certificate mergeSha is not the merge commit")
		}
	}
	return c, nil
}

// checkIncrement checks the report's increment certificate: with want,
// milestone 1's on the merge commit, binding story #1 to that merge and
// its unit certificate; without, none.
func checkIncrement(t *testing.T, res *Result, want bool) {
	t.Helper()
	v := res.Increment
	if !want {
		if v != nil {
			t.Errorf("an increment certificate %s, want none", v.SHA256)
		}
		return
	}
	if v == nil {
		t.Fatal("no increment certificate in the report")
	}
	var merge string
	for _, cr := range res.Commits {
		if cr.Label == "merge commit" {
			merge = cr.SHA
		}
	}
	var got incrementrules.Certificate
	if err := json.Unmarshal([]byte(v.Certificate), &got); err != nil {
		t.Fatal(err)
	}
	if got.Milestone != 1 || got.IntegratedSha != merge || v.SHA != merge || len(got.Stories) != 2 || got.Stories[0].MergeSha != merge ||
		got.Stories[0].CertificateSha256 != certificate.FileFingerprint([]byte(res.Certificate)) || got.Demonstration == nil {
		t.Errorf("increment certificate %s does not bind milestone 1 at the merge commit %s with story #1's certificate and the demonstration", v.Certificate, merge)
	}
	runs := finalRuns(res)
	if got := runs["merge commit aepgate/increment"]; got != "success" {
		t.Errorf("aepgate/increment on the merge commit = %q, want success", got)
	}
}

// checkTimeline reads timeline.json back: the same result, version 1.
func checkTimeline(t *testing.T, out string, res *Result) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got Result
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != TimelineVersion {
		t.Errorf("timeline version %d, want %d", got.Version, TimelineVersion)
	}
	if diff := cmp.Diff(res.Steps, got.Steps); diff != "" {
		t.Errorf("timeline.json steps differ (-run +file):\n%s", diff)
	}
}

// TestOutageInjectsFaults: the outage scenario's App met real failures.
func TestOutageInjectsFaults(t *testing.T) {
	res, _ := play(t, "outage")
	if res.Figures.Faults == 0 {
		t.Error("no request failed on purpose")
	}
}

func TestRunRefusesBadUsage(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"scenario", Options{Out: t.TempDir(), Scenario: "sunny"}, `--scenario "sunny": use one of happy, attacks, outage`},
		{"speed", Options{Out: t.TempDir(), Speed: "warp"}, `--speed "warp": use fast or real`},
		{"out", Options{}, "an output folder is required"},
		{"out is a file", Options{Out: fileIn(t)}, "cannot be the report folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), tt.o)
			if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run = %v, want ErrUsage saying %q", err, tt.want)
			}
		})
	}
}

// fileIn returns the path of a regular file: what --out meets when the
// demo's binary sits in the folder it is run from under the default name.
func fileIn(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "aepgate-demo-report")
	if err := os.WriteFile(path, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
