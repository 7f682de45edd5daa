package readback

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// judgement is one readback decision with what it was made from.
type judgement struct {
	audit  Audit
	result readbackrules.Result
	view   checks.ReadbackView
	// auth is who merged under which authority (authority.go).
	auth merge.AuthorityResult
	// Coverage is the merge's coverage when the readback observed it (a
	// merge commit, or a squash or rebase under the replay rule; nil
	// otherwise): for a verified readback, identity or replay. The
	// certificate step reads it here.
	Coverage *ObservedCoverage
	// retro is what the merge owes for its overrides (retro.go).
	retro merge.Retro
}

// Refusal tokens the App adds to protocol/readbackrules's.
const (
	tokenTimeout        = "readback-timeout"
	tokenRunsUnreadable = "workflow-runs-unreadable"
	tokenConfigInvalid  = "config-invalid"
)

// observe reads the runs on the default branch at the merge SHA, the
// coverage of the merge (its tree compared with git's replay of the
// audited change) and, for a one-parent merge judged under the strict
// rule whose tree is the audited head's, whether the audited head contains
// the base, and decides.
func (j *Judge) observe(ctx context.Context, in Input, m *gh.MergedPull, cfg *config.Config, cfgErr error, timeout time.Duration) (judgement, error) {
	a, err := j.Rules.Audited(ctx, in.Owner, in.Repo, m)
	if err != nil {
		return judgement{}, err
	}
	rin, extra := readbackInput(m, a, cfg, cfgErr)
	runs, err := j.GitHub.Read.MainRuns(ctx, in.Owner, in.Repo, m.MergeSHA, m.DefaultBranch)
	switch {
	case errors.Is(err, gh.ErrRunsForbidden):
		extra = append(extra, unreadable(err.Error()))
	case err != nil:
		return judgement{}, err
	}
	rin.MainRuns = pushRuns(runs)
	cov, err := j.coverage(ctx, in, rin)
	if err != nil {
		return judgement{}, err
	}
	if cov != nil {
		rin.Merge.Coverage = coverage.ForReadback(cov.Result)
	}
	if rin.Merge.AuditedContainsBase, err = j.containsBase(ctx, in, rin.Merge, rin.Rule); err != nil {
		return judgement{}, err
	}
	res := readbackrules.Decide(rin)
	view := checks.ReadbackView{PR: m.Number, MergeSHA: m.MergeSHA, AuditedSHA: a.SHA, Branch: m.DefaultBranch, Result: res, Extra: extra, Notes: coverageNotes(cov)}
	view.State, view.Awaited = state(res, extra)
	if view.State == checks.ReadbackWaiting && j.Now().After(m.MergedAt.Add(timeout)) {
		view.State = checks.ReadbackFailed
		view.Extra = append(view.Extra, refusal.Refusal{Token: tokenTimeout, Expected: "readback within " + timeout.String() + " of the merge at " + m.MergedAt.UTC().Format(time.RFC3339),
			Seen: "still waiting for " + strings.Join(view.Awaited, ", ")})
	}
	return judgement{audit: a, result: res, view: view, Coverage: cov}, nil
}

// readbackInput is what readbackrules decides on, before the runs on the
// default branch and the coverage are read, and the App's refusals of
// what it could not read.
func readbackInput(m *gh.MergedPull, a Audit, cfg *config.Config, cfgErr error) (readbackrules.Input, []refusal.Refusal) {
	rin := readbackrules.Input{DefaultBranch: m.DefaultBranch, PRRuns: m.PRRuns, Rule: config.Default().Readback.Coverage,
		Merge: readbackrules.Merge{AuditedSha: a.SHA, PRHeadSha: m.HeadSHA, MergeSha: m.MergeSHA, Parents: m.MergeParents, MergeTree: m.MergeTree}}
	if a.SHA == m.HeadSHA {
		rin.Merge.AuditedTree = m.HeadTree
	}
	var extra []refusal.Refusal
	if cfg != nil {
		rin.RequiredWorkflows, rin.Rule = cfg.RequiredWorkflows.Readback, cfg.Readback.Coverage
	} else {
		extra = append(extra, refusal.Refusal{Token: tokenConfigInvalid, Expected: "a valid " + gh.ConfigPath + " on " + m.DefaultBranch, Seen: cfgErr.Error()})
	}
	if m.RunsUnreadable != "" {
		extra = append(extra, unreadable(m.RunsUnreadable))
	}
	return rin, extra
}

func unreadable(why string) refusal.Refusal {
	return refusal.Refusal{Token: tokenRunsUnreadable, Expected: "the workflow runs (grant the App Actions: read)", Seen: why}
}

// readbackEvents are the events a readback run may come from: a push to
// the default branch, or a workflow dispatched on it.
var readbackEvents = map[string]bool{"push": true, "workflow_dispatch": true}

// pushRuns keeps the runs started by a push or a dispatch: a pull request
// whose head is the default branch also runs there, and is no rules.
func pushRuns(runs []readbackrules.Run) []readbackrules.Run {
	var out []readbackrules.Run
	for _, r := range runs {
		if readbackEvents[r.Event] {
			out = append(out, r)
		}
	}
	return out
}

// containsBase asks GitHub whether the audited head contains the commit a
// one-parent merge was applied onto, when the answer matters: under the
// strict rule, the merge tree is the audited head's. Answers are cached
// (history is immutable).
func (j *Judge) containsBase(ctx context.Context, in Input, m readbackrules.Merge, rule string) (bool, error) {
	if rule == readbackrules.RuleReplay || len(m.Parents) != 1 || m.MergeTree == "" || m.MergeTree != m.AuditedTree {
		return false, nil
	}
	return j.contains(ctx, in, m.Parents[0], m.AuditedSha)
}

// waitPrefixes are the refusals that only mean "not yet": a run still
// missing or still running.
var waitPrefixes = []string{"readback-missing:", "readback-not-complete:", "ci-not-complete:"}

// state says where the readback stands: verified, waiting (every refusal
// is one that time may lift; the awaited workflows are named), or failed.
func state(res readbackrules.Result, extra []refusal.Refusal) (checks.ReadbackState, []string) {
	if res.Verified && len(extra) == 0 {
		return checks.ReadbackVerified, nil
	}
	var awaited []string
	for _, r := range append(append([]refusal.Refusal(nil), res.Refusals...), extra...) {
		if r.Token == tokenRunsUnreadable {
			awaited = appendOnce(awaited, "readable workflow runs")
			continue
		}
		name, ok := cutAny(r.Token, waitPrefixes)
		if !ok {
			return checks.ReadbackFailed, nil
		}
		awaited = appendOnce(awaited, name)
	}
	return checks.ReadbackWaiting, awaited
}

func cutAny(s string, prefixes []string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return "", false
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
