package pull

import (
	"context"
	"fmt"
	"sort"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/review"
)

// readAudits reads what the audit declared it reads (verdict.Reads.Audits):
// the reviewers' and pushers' access, then the evidence bundles.
func (j *Judge) readAudits(ctx context.Context, in Input, ev *verdict.Evaluation) error {
	if err := j.readAuditAccess(ctx, in, ev); err != nil {
		return err
	}
	return j.fetchBundles(ctx, in, ev)
}

// readAuditAccess reads, once per evaluation, the live role of every
// reviewer who wrote an aep-audit block, of everyone whose approval of an
// agent's pull request is judged (verdict.Evaluation.Approvers), and who
// was recorded pushing the pull request's commits. A failed look-up fails the evaluation, to be
// retried: it never counts as a role.
func (j *Judge) readAuditAccess(ctx context.Context, in Input, ev *verdict.Evaluation) error {
	p := ev.Snap.Pull
	if p == nil || ev.Cfg == nil {
		return nil
	}
	for _, r := range p.Reviews {
		login := r.Author.Login
		if login == "" || !review.HasBlock(r.Body) {
			continue
		}
		if _, err := j.roleOf(ctx, in, ev, login); err != nil {
			return fmt.Errorf("auditor access: %w", err)
		}
	}
	for _, login := range ev.Approvers() { // an agent's pull request only
		if _, err := j.roleOf(ctx, in, ev, login); err != nil {
			return fmt.Errorf("approver access: %w", err)
		}
	}
	shas := make([]string, 0, len(p.Commits)+1)
	shas = append(shas, p.HeadSHA)
	for _, c := range p.Commits {
		shas = append(shas, c.SHA)
	}
	pushed, err := j.Reads.Pushers.Pushers(ctx, in.FullName(), shas)
	if err != nil {
		return fmt.Errorf("auditor access: %w", err)
	}
	ev.Pushers = nil
	for _, ps := range pushed {
		ev.Pushers = append(ev.Pushers, review.Push{SHA: ps.SHA, Login: ps.Login})
	}
	return nil
}

// fetchBundles reads the evidence bundles of the reviews that may count as
// audits (the review rules let them through), one GraphQL read per audited
// commit. Paths the path rules refuse (private or credential files, ..,
// absolute) are never read; a review citing more files than a bundle may
// hold is not read at all (the audit refuses it).
func (j *Judge) fetchBundles(ctx context.Context, in Input, ev *verdict.Evaluation) error {
	if ev.Snap.Pull == nil || !ev.Snap.Has.Commits || ev.Cfg == nil {
		return nil
	}
	ev.Bundles = map[int64]verdict.Bundle{}
	wants := ev.BundleWants()
	bySHA := map[string][]string{}
	for _, w := range wants {
		bySHA[w.SHA] = append(bySHA[w.SHA], w.Paths...)
	}
	files := map[string]gh.BlobFile{}
	shas := make([]string, 0, len(bySHA))
	for sha := range bySHA {
		shas = append(shas, sha)
	}
	sort.Strings(shas)
	for _, sha := range shas {
		paths := unique(bySHA[sha])
		for len(paths) > 0 {
			n := min(len(paths), gh.MaxFilesRead)
			got, err := j.Reads.Files.ReadFiles(ctx, in.Owner, in.Repo, sha, paths[:n])
			if err != nil {
				return err
			}
			for _, f := range got {
				files[sha+"\x00"+f.Path] = f
			}
			paths = paths[n:]
		}
	}
	for _, w := range wants {
		ev.Bundles[w.ID] = assemble(w, files)
	}
	return nil
}

// assemble builds one review's bundle from the files read; a binary file
// or one GitHub would not return whole makes the bundle unreadable.
func assemble(w verdict.BundleWant, files map[string]gh.BlobFile) verdict.Bundle {
	var b verdict.Bundle
	for _, p := range w.Paths {
		f := files[w.SHA+"\x00"+p]
		switch {
		case f.Binary:
			return verdict.Bundle{Err: fmt.Sprintf("%s is a binary file at %s; evidence must be UTF-8 text", p, gitsha.Short(w.SHA))}
		case f.TooLarge:
			return verdict.Bundle{Err: fmt.Sprintf("%s at %s is larger than GitHub returns in one read", p, gitsha.Short(w.SHA))}
		}
		b.Files = append(b.Files, review.File{Path: p, Content: f.Content, Symlink: f.Symlink, Missing: f.Missing})
	}
	if b.Files == nil {
		b.Files = review.Bundle{}
	}
	return b
}

// unique sorts s and drops its repeated values, in place.
func unique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Audit is what the audit decided for a merged pull request: the audited
// head, its auditor, review and verdict, and for an agent's pull request
// who did what (readback.Audit's fields).
type Audit struct {
	SHA          string
	Auditor      string
	ReviewID     int64
	Verdict      string
	Independence *certificate.Independence
}

// Audited is where the audit decision enters readback: merged pull request
// m's reviews judged as aepgate/audit judges them (same snapshot, bundles,
// owner answers). A PASS names the audited head, its auditor, review and
// verdict, which readback proves merged unchanged and the certificate
// names, with the pushes and counted approvals of an agent's pull request
// (verdict.Evaluation.Independence). A stale audit names the older head it was for, so readback
// refuses a head pushed after the audit. Without a counting audit (none
// needed, or none given) it is the final head with no verdict: the merge is
// read back, and no certificate is issued (protocol/certificate requires a
// PASS).
func (j *Judge) Audited(ctx context.Context, owner, repo string, m *gh.MergedPull) (Audit, error) {
	none := Audit{SHA: m.HeadSHA}
	needs, reads := j.needs()
	snap, err := j.Reads.Snap.Snapshot(ctx, gh.SnapshotRequest{Owner: owner, Repo: repo, PR: m.Number, Needs: needs})
	if err != nil || snap.Pull == nil {
		return none, err
	}
	ev, err := j.prepare(ctx, Input{Owner: owner, Repo: repo, PR: m.Number}, snap, verdict.UnitOf(snap), reads)
	if err != nil || ev.Cfg == nil {
		return none, err
	}
	d := ev.AuditDecision()
	switch {
	case d.Outcome == review.OutcomePassed && d.Review != nil:
		return Audit{SHA: d.AuditedSHA, Auditor: d.Review.Author.Login, ReviewID: d.Review.ID, Verdict: review.VerdictPass, Independence: ev.Independence()}, nil
	case d.Outcome == review.OutcomeStale && d.AuditedSHA != "":
		return Audit{SHA: d.AuditedSHA}, nil
	}
	return none, nil
}
