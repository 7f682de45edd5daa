package boardview

import (
	"fmt"
	"strconv"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// MaxWaiting is how many of what an increment's stage lacks the board
// lists; the rest are counted.
const MaxWaiting = 5

// IncrementFact is the App's latest judgement of one milestone's increment
// (app/increment): protocol/incrementrules's verdict and the aepgate/increment
// check run that shows it. The App keeps the latest per milestone; the
// board shows it.
type IncrementFact struct {
	Milestone int                  `json:"milestone"`
	Stage     incrementrules.Stage `json:"stage"`
	Tier      string               `json:"tier,omitempty"`
	// Candidate is the integrated candidate; empty when there is none.
	Candidate string `json:"candidate,omitempty"`
	// Missing is what the stage lacks, as protocol/incrementrules words it.
	Missing []string `json:"missing,omitempty"`
	// AcceptCommand is the owner's command that accepts the candidate
	// (a high increment with a candidate).
	AcceptCommand string `json:"accept_command,omitempty"`
	// SHA256 is the increment certificate's SHA-256 (set when complete).
	SHA256 string `json:"sha256,omitempty"`
	// RunID is the aepgate/increment check run on Candidate; 0 when the
	// App shows none (building).
	RunID int64 `json:"run_id,omitempty"`
	// AppSlug is the App's slug: `aepgate certificate fetch` trusts its
	// runs by it.
	AppSlug string `json:"app_slug,omitempty"`
}

// FactOf is the board's fact of verdict v, shown by check run runID (0:
// none) of the App called appSlug.
func FactOf(v incrementrules.Verdict, runID int64, appSlug string) IncrementFact {
	f := IncrementFact{Milestone: v.Milestone, Stage: v.Stage, Tier: v.Tier, Candidate: v.Candidate,
		AcceptCommand: v.AcceptCommand, RunID: runID, AppSlug: appSlug}
	for _, m := range v.Missing {
		f.Missing = append(f.Missing, m.What)
	}
	if v.Complete() {
		f.SHA256 = v.SHA256
	}
	return f
}

// IncrementCertificate is a complete increment's certificate as the board
// links it.
type IncrementCertificate struct {
	// SHA256 is the certificate's SHA-256, lowercase hex.
	SHA256 string `json:"sha256"`
	// Integrated is the integrated commit it certifies.
	Integrated string `json:"integrated"`
	// URL is the aepgate/increment check run's page (its html_url).
	URL string `json:"url"`
	// Fetch is the command that reads it back and validates it.
	Fetch string `json:"fetch"`
}

// FetchCommand is the exact command that reads milestone n's increment
// certificate on sha back from repo ("owner/name") and validates it,
// trusting the App called appSlug.
func FetchCommand(repo string, n int, sha, appSlug string) string {
	return fmt.Sprintf("aepgate certificate fetch --repo %s --sha %s --increment %d --app-slug %s", repo, sha, n, appSlug)
}

// progress sets inc's stage: the App's latest judgement of the increment
// when it holds one; before the first, protocol/incrementrules's rules applied
// to the stories the board reads (a story not done: building; every story
// done: integrating, the candidate not judged yet). A complete increment
// links its certificate.
func (in Input) progress(inc *Increment, m Milestone) {
	f, judged := in.Increments[m.Number]
	if !judged {
		f = in.derived(m)
	}
	inc.Stage, inc.Tier, inc.Judged, inc.Waiting = f.Stage, f.Tier, judged, waiting(f.Missing)
	if f.Stage == incrementrules.Accepting {
		inc.AcceptCommand = f.AcceptCommand
	}
	if f.Stage == incrementrules.Complete && f.SHA256 != "" && f.Candidate != "" && f.RunID != 0 && f.AppSlug != "" {
		inc.Certificate = &IncrementCertificate{SHA256: f.SHA256, Integrated: f.Candidate,
			URL: in.URL + "/runs/" + strconv.FormatInt(f.RunID, 10), Fetch: FetchCommand(in.Repo, m.Number, f.Candidate, f.AppSlug)}
	}
}

// derived is the fact protocol/incrementrules decides on the board's own read:
// the stories with their closure verdicts, no candidate. Past building,
// what it lacks is that the App has not judged the candidate yet.
func (in Input) derived(m Milestone) IncrementFact {
	f := incrementrules.Facts{Repo: in.Repo, Milestone: m.Number, Title: m.Title, Open: m.Open}
	for _, is := range m.Issues {
		st := workunit.Story{Body: is.Body, Kept: is.Kept}
		c, _ := st.Effective()
		s := incrementrules.Story{Number: is.Number, Risk: string(c.Risk), Closure: closurerules.Verdict{Number: is.Number, State: closurerules.Open}}
		if cl, ok := in.Closures[is.Number]; ok && !is.Open {
			s.Closure = cl.Verdict
		}
		f.Stories = append(f.Stories, s)
	}
	// No tier: the milestone's description, which may declare one, is not
	// read here.
	v := incrementrules.Decide(f)
	out := IncrementFact{Milestone: m.Number, Stage: v.Stage}
	if v.Stage != incrementrules.Building {
		out.Stage, out.Missing = incrementrules.Integrating, []string{"the App has not judged the integrated candidate yet (its next judgement of the milestone does)"}
		return out
	}
	for _, ms := range v.Missing {
		out.Missing = append(out.Missing, ms.What)
	}
	return out
}

// waiting is at most MaxWaiting of missing, the rest counted.
func waiting(missing []string) []string {
	if len(missing) <= MaxWaiting {
		return missing
	}
	out := append([]string(nil), missing[:MaxWaiting]...)
	return append(out, fmt.Sprintf("and %d more", len(missing)-MaxWaiting))
}
