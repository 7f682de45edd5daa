package increment

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// gathered is one milestone's facts with what acting on them needs.
type gathered struct {
	facts     incrementrules.Facts
	cfg       *config.Config
	control   *snapshot.ControlIssue
	closedAt  string
	candidate []snapshot.ExistingRun // this App's aepgate/increment runs on the candidate
	// people says why the config's people could not be resolved ("" when
	// they were): nobody's acceptance then counts (app/owners).
	people string
}

// gather reads one milestone's facts; nil when there is nothing to judge
// (no such milestone, or an invalid config, which aepgate/config shows).
func (j *Judge) gather(ctx context.Context, in Input, snap *snapshot.PR, number int, by closurerules.Actor) (*gathered, error) {
	m, err := j.Src.Milestone(ctx, in.Owner, in.Repo, number)
	if err != nil || !m.Found {
		return nil, err
	}
	cfg, err := verdict.Config(snap.Config)
	if err != nil {
		j.Log.Warn("increment not judged: the repository config is invalid", "milestone", number, "err", err)
		return nil, nil
	}
	cfg, problem, err := j.People.Resolved(ctx, in.Owner, in.Repo, snap.Config.CommitSHA, cfg)
	if err != nil {
		return nil, err
	}
	g := &gathered{cfg: cfg, control: snap.Control, closedAt: m.ClosedAt, people: problem}
	f := incrementrules.Facts{Repo: in.Owner + "/" + in.Repo, Milestone: number, Title: m.Title, Open: m.Open, ClosedBy: by,
		Owners: cfg.Owners, Coordinators: cfg.Coordinators, Prefix: cfg.CommandPrefix, DefaultBranch: snap.DefaultBranch,
		Required: cfg.RequiredWorkflows.Readback, Approvals: cfg.ApprovalsFor(incrementrules.AcceptanceCategory)}
	_, problems := workunit.ParseIncrement(m.Description)
	for _, p := range problems {
		f.Problems = append(f.Problems, fmt.Sprintf("the milestone description's yaml block: %v", p))
	}
	if problem != "" {
		f.Problems = append(f.Problems, "the owners cannot be resolved, so no acceptance counts: "+problem)
	}
	if err := j.definition(ctx, in, cfg, m, &f); err != nil {
		return nil, err
	}
	if m.Truncated {
		f.Problems = append(f.Problems, "the milestone holds more issues than the App reads (an increment holds 1 to 8 stories)")
	}
	if f.Stories, err = j.stories(ctx, in, m, &f); err != nil {
		return nil, err
	}
	if f.Comments, err = j.comments(ctx, in, cfg, snap.Control, f.Stories); err != nil {
		return nil, err
	}
	if err := j.integrate(ctx, in, &f); err != nil {
		return nil, err
	}
	g.facts = f
	if f.Candidate.SHA != "" {
		g.candidate, err = j.Src.AppCheckRuns(ctx, in.Owner, in.Repo, f.Candidate.SHA, nameIncrement)
	}
	return g, err
}

// stories are the milestone's issues with their closure verdicts, judged
// on the stored closure facts and the App's evidence (no GitHub read).
func (j *Judge) stories(ctx context.Context, in Input, m *gh.Milestone, f *incrementrules.Facts) ([]incrementrules.Story, error) {
	repo := in.Owner + "/" + in.Repo
	facts, err := j.Store.Closures(ctx, repo)
	if err != nil {
		return nil, err
	}
	evidence, err := j.Store.UnitEvidence(ctx, repo)
	if err != nil {
		return nil, err
	}
	var out []incrementrules.Story
	for _, is := range m.Stories {
		s := incrementrules.Story{Number: is.Number, Closure: closurerules.Verdict{Number: is.Number, State: closurerules.Open}}
		if s.Risk, err = j.storyRisk(ctx, in, is, f); err != nil {
			return nil, err
		}
		for _, raw := range evidence[is.Number] {
			var a closurerules.Attempt
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, fmt.Errorf("evidence of %s#%d: %w", repo, is.Number, err)
			}
			s.Attempts = append(s.Attempts, a)
		}
		if raw, ok := facts[is.Number]; ok && !is.Open {
			cf, err := verdict.ClosureFacts(raw, evidence[is.Number])
			if err != nil {
				return nil, fmt.Errorf("closure of %s#%d: %w", repo, is.Number, err)
			}
			if sameClosure(cf.ClosedAt, is.ClosedAt) {
				s.Closure = closurerules.Judge(cf, j.ClosureRules)
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// sameClosure: the stored facts are of the closure GitHub shows now (a
// closure not judged yet, or judged before a reopening, is not).
func sameClosure(stored time.Time, now string) bool {
	t, err := time.Parse(time.RFC3339, now)
	return err == nil && !stored.IsZero() && stored.Equal(t)
}

// comments are the control thread's comments but the App's own, each
// listed owner's or coordinator's author with their live permission, and
// the HOLD (of the control issue or a story) that applied when it was
// posted.
func (j *Judge) comments(ctx context.Context, in Input, cfg *config.Config, c *snapshot.ControlIssue, stories []incrementrules.Story) ([]incrementrules.Comment, error) {
	if c == nil {
		return nil, nil
	}
	var numbers []int
	for _, s := range stories {
		numbers = append(numbers, s.Number)
	}
	h, err := j.readHolds(ctx, in, numbers, cfg.CommandPrefix)
	if err != nil {
		return nil, err
	}
	roles := map[string]string{}
	var out []incrementrules.Comment
	for _, cm := range c.Thread.Comments {
		if login.Equal(cm.Author.Login, j.AppLogin) {
			continue
		}
		a := closurerules.Actor{Login: cm.Author.Login, Type: cm.Author.Type}
		if a.Type == "User" && (login.In(cfg.Owners, a.Login) || login.In(cfg.Coordinators, a.Login)) {
			role, seen := roles[a.Login]
			if !seen {
				var err error
				if role, err = j.Src.Role(ctx, in.Owner, in.Repo, a.Login); err != nil {
					return nil, err
				}
				roles[a.Login] = role
			}
			a.Permission = role
		}
		rc := incrementrules.Comment{ID: cm.ID, Body: cm.Body, Author: a, Created: cm.Created, Updated: cm.Updated}
		rc.Hold = h.at(rc)
		out = append(out, rc)
	}
	return out, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
