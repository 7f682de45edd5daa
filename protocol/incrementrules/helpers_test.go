package incrementrules

import (
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/readbackrules"
)

var (
	owner       = closurerules.Actor{Login: "olivia", Type: "User", Permission: "admin"}
	coordinator = closurerules.Actor{Login: "carl", Type: "User", Permission: "write"}
	stranger    = closurerules.Actor{Login: "mallory", Type: "User", Permission: "write"}
	t0          = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
)

// sha is a 40-hex commit SHA made of c.
func sha(c string) string { return strings.Repeat(c, 40) }

// cert is a 64-hex certificate fingerprint made of c.
func cert(c string) string { return strings.Repeat(c, 64) }

const criterion = "a report is exported as CSV and opened in a spreadsheet"

// done is story n done with risk, certified by a merge at m.
func done(n int, risk, m string) Story {
	return Story{Number: n, Risk: risk, Closure: closurerules.Verdict{Number: n, State: closurerules.Done},
		Attempts: []closurerules.Attempt{{PR: 100 + n, MergeSHA: m, CertificateSHA256: cert("c"), MergePassed: true, ReadbackPassed: true}}}
}

// complete are the facts of a complete medium increment of three stories
// integrated at sha("3"), with its readback.
func complete() Facts {
	return Facts{Repo: "o/r", Milestone: 4, Title: "M1", Open: true, Owners: []string{"olivia"}, Coordinators: []string{"carl"},
		Stories:       []Story{done(1, "low", sha("1")), done(2, "medium", sha("2")), done(3, "medium", sha("3"))},
		Candidate:     Candidate{SHA: sha("3"), OnDefault: true, Contains: map[string]bool{sha("1"): true, sha("2"): true, sha("3"): true}},
		DefaultBranch: "main", Required: []string{"ci"},
		Runs: []readbackrules.Run{{ID: 900, Workflow: "ci", HeadSHA: sha("3"), Branch: "main", Status: "completed", Conclusion: "success"}},
	}
}

func with(f Facts, edit func(*Facts)) Facts { edit(&f); return f }

// high makes f a high increment.
func high(f *Facts) { f.Declared = "high" }

func comment(id int64, who closurerules.Actor, body string) Comment {
	return Comment{ID: id, Body: body, Author: who, Created: t0, Updated: t0}
}

func accept(id int64, who closurerules.Actor, milestone, at string) Comment {
	return comment(id, who, "/aep accept "+milestone+" "+at)
}

func demo(id int64, who closurerules.Actor, crit string) Comment {
	return comment(id, who, "```aep-demo\nmilestone: 4\ncriterion: "+crit+"\nevidence: run 77\n```\n")
}

// demonstrating declares the criterion and reads back run 77.
func demonstrating(f *Facts) {
	f.Criterion = criterion
	f.Evidence = map[string]string{"run 77": ""}
}
