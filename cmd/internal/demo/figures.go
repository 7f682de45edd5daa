package demo

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// tokenRoute mints installation tokens: App authentication, not work.
const tokenRoute = "POST /app/installations/{installation_id}/access_tokens"

// Figures are the run's numbers.
type Figures struct {
	// Deliveries is how many signed webhook deliveries GitHub sent the
	// App; Accepted how many it answered 2xx.
	Deliveries int `json:"deliveries"`
	Accepted   int `json:"accepted"`
	// AppReads and AppWrites count the App's GitHub calls (GraphQL
	// queries are reads; token minting is neither), faulted ones included.
	AppReads  int `json:"app_reads"`
	AppWrites int `json:"app_writes"`
	// TokenMints counts installation tokens the App minted.
	TokenMints int `json:"token_mints"`
	// AppCheckRuns is how many check runs the App created.
	AppCheckRuns int `json:"app_check_runs"`
	// ReadsPerCheckRun and WritesPerCheckRun divide the App's calls by
	// the check runs it created.
	ReadsPerCheckRun  float64 `json:"reads_per_check_run"`
	WritesPerCheckRun float64 `json:"writes_per_check_run"`
	// ByCheck counts, per check name, the App's creates and updates.
	ByCheck map[string]CheckWrites `json:"by_check"`
	// Faults is how many requests GitHub failed on purpose (outage).
	Faults int   `json:"faults"`
	WallMS int64 `json:"wall_ms"`
}

// CheckWrites are one check's writes.
type CheckWrites struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
}

// figures counts the deliveries and the App's calls.
func (w *world) figures(wall time.Duration) Figures {
	fg := Figures{ByCheck: map[string]CheckWrites{}, WallMS: wall.Milliseconds()}
	for _, d := range w.f.Deliveries() {
		fg.Deliveries++
		if d.Status >= 200 && d.Status < 300 {
			fg.Accepted++
		}
	}
	w.countRequests(&fg, w.runNames(fg.ByCheck))
	for _, c := range fg.ByCheck {
		fg.AppCheckRuns += c.Created
	}
	if fg.AppCheckRuns > 0 {
		fg.ReadsPerCheckRun = float64(fg.AppReads) / float64(fg.AppCheckRuns)
		fg.WritesPerCheckRun = float64(fg.AppWrites) / float64(fg.AppCheckRuns)
	}
	return fg
}

// countRequests counts the faults and the App's reads, writes and token
// mints, and its check-run updates by name.
func (w *world) countRequests(fg *Figures, names map[string]string) {
	for _, r := range w.f.Requests() {
		if r.Fault != "" {
			fg.Faults++
		}
		if r.Installation != w.inst.ID && r.App != appID {
			continue
		}
		switch {
		case r.Pattern == tokenRoute:
			fg.TokenMints++
		case !r.Write || r.Pattern == "POST /graphql":
			fg.AppReads++
		default:
			fg.AppWrites++
			w.countCheckWrite(fg.ByCheck, names, r)
		}
	}
}

// countCheckWrite counts a served check-run create or update by name.
func (w *world) countCheckWrite(by map[string]CheckWrites, names map[string]string, r ghfake.Request) {
	if r.Status < 200 || r.Status > 299 {
		return
	}
	switch r.Pattern {
	case "POST /repos/{owner}/{repo}/check-runs":
		// The create's name is not in the log; it is counted from the runs.
	case "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}":
		id := r.Path[strings.LastIndex(r.Path, "/")+1:]
		c := by[names[id]]
		c.Updated++
		by[names[id]] = c
	}
}

// runNames maps every App check run's ID on the watched commits to its
// name, and counts each in by as created.
func (w *world) runNames(by map[string]CheckWrites) map[string]string {
	out := map[string]string{}
	for _, c := range w.rec.commits {
		for _, r := range w.repo.CheckRuns(c.sha) {
			if r.AppID == appID {
				out[fmt.Sprint(r.ID)] = r.Name
				cw := by[r.Name]
				cw.Created++
				by[r.Name] = cw
			}
		}
	}
	return out
}

// printFigures ends the progress output with the figures.
func printFigures(out io.Writer, res *Result, dir string) {
	fg := res.Figures
	fmt.Fprintf(out, "\nFigures: %d webhook deliveries (%d accepted); the App made %d GitHub reads and %d writes (+%d token mints) for %d check runs: %.1f reads and %.1f writes per check run",
		fg.Deliveries, fg.Accepted, fg.AppReads, fg.AppWrites, fg.TokenMints, fg.AppCheckRuns, fg.ReadsPerCheckRun, fg.WritesPerCheckRun)
	if fg.Faults > 0 {
		fmt.Fprintf(out, "; GitHub failed %d requests on purpose", fg.Faults)
	}
	fmt.Fprintf(out, "; wall time %.1f s.\n", float64(fg.WallMS)/1000)
	var names []string
	for n := range fg.ByCheck {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(out, "  %-22s created %d, updated %d\n", n, fg.ByCheck[n].Created, fg.ByCheck[n].Updated)
	}
	if a := res.Attestation; a != nil {
		fmt.Fprintf(out, "$ (cd %s && %s)\n%s\n", dir, a.Command, attestationOutcome(a))
	}
	fmt.Fprintf(out, "%s\nReport: %s\n", res.Ledger.Verdict, strings.TrimSuffix(dir, "/")+"/index.html")
	if len(res.Problems) > 0 {
		fmt.Fprintf(out, "PROBLEMS:\n  %s\n", strings.Join(res.Problems, "\n  "))
	}
}
