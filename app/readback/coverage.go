package readback

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/replay"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/readbackrules"
)

// CoverageSource observes how much of shipped commit in.Shipped of
// owner/repo the audit of in.AuditedHead covers (protocol/coverage). What
// the repository cannot answer is an unverifiable result; an error means
// try again.
type CoverageSource interface {
	Coverage(ctx context.Context, owner, repo string, in replay.Input) (coverage.Observation, coverage.Result, error)
}

// ObservedCoverage is a readback's replay of the audited change: the rule
// it was judged under (config readback.coverage), what internal/replay
// observed and how protocol/coverage classified it.
type ObservedCoverage struct {
	Rule        string
	Observation coverage.Observation
	Result      coverage.Result
}

// Clones is the App's CoverageSource: one bare clone per repository under
// Dir (Dir/owner/repo.git), fetched from Remote's URL with its token when
// it lacks the commits, then replayed by internal/replay. A fetch that
// fails is an unverifiable result naming it (the next evaluation fetches
// again).
type Clones struct {
	Dir    string
	Remote func(ctx context.Context, owner, repo string) (replay.Remote, error)
}

// ClonesOf are the clones of installation id's repositories under
// DefaultClonesDir, fetched with its token from beside c's REST API.
func ClonesOf(c *gh.Clients, id int64) *Clones {
	return &Clones{Dir: DefaultClonesDir(), Remote: func(ctx context.Context, owner, repo string) (replay.Remote, error) {
		u, tok, err := c.GitRemote(ctx, id, owner, repo)
		return replay.Remote{URL: u, Token: tok}, err
	}}
}

// DefaultClonesDir is aepgate/clones under the user's cache directory
// ($XDG_CACHE_HOME, else ~/.cache, on Linux), else under the temporary
// directory.
func DefaultClonesDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "aepgate", "clones")
}

var repoName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`) })

// Coverage implements CoverageSource. A shipped commit with one parent
// that does not replay onto it is replayed again onto the base a rebase
// of the audited head's commits would have started from
// (replay.RebaseOnto).
func (c *Clones) Coverage(ctx context.Context, owner, repo string, in replay.Input) (coverage.Observation, coverage.Result, error) {
	if !keepable(owner) || !keepable(repo) {
		o := coverage.Observation{AuditedHead: in.AuditedHead, Shipped: in.Shipped, Problem: fmt.Sprintf("repository name %q/%q is not one git can be kept under", owner, repo)}
		return o, coverage.Classify(o), nil
	}
	r, err := replay.Init(ctx, filepath.Join(c.Dir, strings.ToLower(owner), strings.ToLower(repo)+".git"))
	if err != nil {
		return coverage.Observation{}, coverage.Result{}, fmt.Errorf("coverage of %s/%s: %w", owner, repo, err)
	}
	if problem, err := c.fetch(ctx, r, owner, repo, in.AuditedHead, in.Shipped); err != nil || problem != "" {
		o := coverage.Observation{AuditedHead: in.AuditedHead, Shipped: in.Shipped, Problem: problem}
		return o, coverage.Classify(o), err
	}
	o, res, err := r.Coverage(ctx, in)
	if err != nil || res.Class.Covered() || in.Onto != "" || len(o.ShippedParents) != 1 {
		return o, res, err
	}
	return rebased(ctx, r, in, o, res)
}

// rebased is the coverage of in replayed onto replay.RebaseOnto's commit
// when that is covered, else the first replay's o and res.
func rebased(ctx context.Context, r *replay.Repo, in replay.Input, o coverage.Observation, res coverage.Result) (coverage.Observation, coverage.Result, error) {
	onto, err := r.RebaseOnto(ctx, in.AuditedHead, in.Shipped)
	if err != nil || onto == "" || onto == o.Onto {
		return o, res, err
	}
	in.Onto = onto
	if ro, rres, err := r.Coverage(ctx, in); err != nil || rres.Class.Covered() {
		return ro, rres, err
	}
	return o, res, nil
}

// keepable reports whether name (an owner's or repository's) can name a
// directory: GitHub's characters, not starting with a dot.
func keepable(name string) bool {
	return repoName().MatchString(name) && !strings.HasPrefix(name, ".")
}

// fetch fetches shas into r when it lacks them: a problem is why it could
// not (the observation is then unverifiable), an error a context ended.
func (c *Clones) fetch(ctx context.Context, r *replay.Repo, owner, repo string, shas ...string) (string, error) {
	for _, s := range shas {
		if !coverage.ValidSHA(s) {
			return fmt.Sprintf("%q is not a full 40-hex commit SHA", s), nil
		}
	}
	has, err := r.Has(ctx, shas...)
	if err != nil || has {
		return "", err
	}
	remote, err := c.Remote(ctx, owner, repo)
	if err == nil {
		err = r.Fetch(ctx, remote, shas...)
	}
	switch {
	case ctx.Err() != nil:
		return "", errors.Join(ctx.Err(), err)
	case err != nil:
		return "the commits could not be fetched (" + err.Error() + "): the App needs git access to the repository over https", nil
	}
	return "", nil
}

// coverage observes the merge's coverage when the rules need it: a merge
// commit (under either rule), or a squash or rebase under the replay rule,
// of the final head the audit passed (a head pushed after the audit is
// refused without it). Results are remembered per repository and pair of
// commits when they do not depend on a fetch that failed.
func (j *Judge) coverage(ctx context.Context, in Input, rin readbackrules.Input) (*ObservedCoverage, error) {
	m := rin.Merge
	switch {
	case m.AuditedSha != m.PRHeadSha || m.MergeSha == "":
		return nil, nil
	case len(m.Parents) == 2, len(m.Parents) == 1 && rin.Rule == readbackrules.RuleReplay:
	default:
		return nil, nil
	}
	if j.Coverage == nil {
		o := coverage.Observation{AuditedHead: m.AuditedSha, Shipped: m.MergeSha, Problem: "the App observes no coverage (no git clones configured)"}
		return &ObservedCoverage{Rule: rin.Rule, Observation: o, Result: coverage.Classify(o)}, nil
	}
	o, res, err := j.Coverage.Coverage(ctx, in.Owner, in.Repo, replay.Input{AuditedHead: m.AuditedSha, Shipped: m.MergeSha})
	if err != nil {
		return nil, err
	}
	return &ObservedCoverage{Rule: rin.Rule, Observation: o, Result: res}, nil
}

// Bounds of the residual hunks shown on a failed readback: the check
// run's summary holds 64 KiB.
const maxShownHunkBytes = 16 << 10

// coverageNotes say what the coverage showed: for identity or replay one
// line, for a residual its paths with their hunks (bounded) below the
// refusals.
func coverageNotes(cov *ObservedCoverage) []string {
	switch {
	case cov == nil:
		return nil
	case cov.Result.Class == coverage.Identity:
		return []string{"Coverage `identity`: the merged tree is the audited head's."}
	case cov.Result.Class == coverage.Replay:
		return []string{"Coverage `replay`: the audited change replayed by git onto `" + cov.Observation.Onto + "` gives exactly the merged tree."}
	case cov.Result.Class != coverage.Residual:
		return nil
	}
	out := []string{"Content no audit covers (the shipped tree against git's replay of the audited change onto `" + cov.Observation.Onto + "`):"}
	shown := 0
	for _, d := range cov.Result.Residual {
		line := "- `" + strings.ReplaceAll(d.Path, "`", "'") + "` (" + d.Status + ")"
		if d.Hunks == "" || shown+len(d.Hunks) > maxShownHunkBytes {
			out = append(out, line)
			continue
		}
		shown += len(d.Hunks)
		fence := strings.Repeat("`", max(3, longestBackticks(d.Hunks)+1))
		cut := ""
		if d.Truncated {
			cut = " (cut at " + fmt.Sprint(coverage.MaxHunkBytes) + " bytes)"
		}
		out = append(out, line+cut+":\n\n"+fence+"diff\n"+strings.TrimSuffix(d.Hunks, "\n")+"\n"+fence)
	}
	return out
}

func longestBackticks(s string) int {
	n, best := 0, 0
	for _, r := range s {
		if r == '`' {
			n++
			best = max(best, n)
			continue
		}
		n = 0
	}
	return best
}
