package readback

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// retro judges what merge m owes for the overrides its head merged under
// (merge.RetroAudit, docs/merge.md): read from the App's own checks at the
// head, settled by the audit of the merged pull request or an owner's
// waiver among its comments (the waiving owner's live role read from
// GitHub). Nothing is read when nothing was overridden. An invalid config
// names no owner, so only an audit settles it then.
func (j *Judge) retro(ctx context.Context, in Input, m *gh.MergedPull, cfg *config.Config) (merge.Retro, error) {
	rin := merge.RetroInput{Head: m.HeadSHA, MergeSHA: m.MergeSHA, Writers: map[string]bool{}}
	for _, name := range command.OverridableChecks() {
		if r := gh.Latest(m.HeadRuns, name); r != nil {
			rin.Checks = append(rin.Checks, merge.HeadCheck{Name: name, Conclusion: r.Conclusion, Title: r.Title})
		}
	}
	if len(merge.RetroAudit(rin).Overridden) == 0 {
		return merge.Retro{}, nil
	}
	a, err := j.Rules.Audited(ctx, in.Owner, in.Repo, m)
	if err != nil {
		return merge.Retro{}, err
	}
	rin.AuditSHA, rin.AuditVerdict, rin.Auditor, rin.AuditReview = a.SHA, a.Verdict, a.Auditor, a.ReviewID
	if cfg != nil {
		resolved, _, err := j.Rules.People.Resolved(ctx, in.Owner, in.Repo, m.Config.CommitSHA, cfg)
		if err != nil {
			return merge.Retro{}, fmt.Errorf("retro-audit of %s/%s#%d: %w", in.Owner, in.Repo, m.Number, err)
		}
		rin.Owners, rin.Prefix = resolved.Owners, resolved.CommandPrefix
	}
	for _, c := range m.Comments.Comments {
		rin.Comments = append(rin.Comments, merge.Comment{ID: c.ID, Author: merge.Actor{Login: c.Author.Login, Type: c.Author.Type}, Body: c.Body, Edited: c.Edited})
	}
	for _, l := range merge.WaiverAuthors(rin) {
		role, err := j.GitHub.Roles.Role(ctx, in.Owner, in.Repo, l)
		if err != nil {
			return merge.Retro{}, fmt.Errorf("retro-audit of %s/%s#%d: %w", in.Owner, in.Repo, m.Number, err)
		}
		rin.Writers[strings.ToLower(l)] = writeRoles[role]
	}
	return merge.RetroAudit(rin), nil
}

// owe records what an overridden merge owes, once per state (owed, then
// settled): a retro_audit ledger row, the unit's closure evidence (its
// merged attempt, overridden, with the settlement), a 👍 on the owner's
// waiver that settled it, and the board's update. A merge that overrode
// nothing owes nothing and writes nothing.
func (j *Judge) owe(ctx context.Context, in Input, m *gh.MergedPull, r merge.Retro) error {
	if len(r.Overridden) == 0 {
		return nil
	}
	state := "owed"
	if !r.Owed {
		state = "settled-by-" + r.SettledBy
	}
	subject := fmt.Sprintf("%s/%s#%d@%s/retro-audit/%s", in.Owner, in.Repo, m.Number, m.MergeSHA, state)
	if done, err := j.W.Has(ctx, subject); err != nil || done {
		return err
	}
	unit, _ := workunit.SoleUnit(m.Body, in.Owner+"/"+in.Repo)
	if err := j.W.Record(ctx, store.Entry{Kind: "retro_audit", DeliveryID: in.Delivery, Subject: subject, Body: map[string]any{
		"event": in.Event, "repository": in.Owner + "/" + in.Repo, "pull_request": m.Number, "unit": unit,
		"merge_sha": m.MergeSHA, "head_sha": m.HeadSHA, "overridden": r.Overridden, "owed": r.Owed,
		"settled_by": r.SettledBy, "evidence": r.Evidence, "waived_by": r.WaivedBy, "waiver_comment": r.Waiver, "reason": r.Reason}}); err != nil {
		return err
	}
	if r.Waiver != 0 && j.GitHub.React != nil {
		if err := j.GitHub.React.React(ctx, in.Owner, in.Repo, r.Waiver, "+1"); err != nil {
			return fmt.Errorf("react to comment %d: %w", r.Waiver, err)
		}
	}
	if j.After.Evidence != nil && unit > 0 {
		if err := j.After.Evidence(ctx, in.Owner, in.Repo, unit, shownAttempt(m, r)); err != nil {
			return err
		}
	}
	if j.After.Boards != nil {
		if err := j.After.Boards(ctx, in.Owner, in.Repo); err != nil {
			j.Log.Warn("board not scheduled after a retro-audit", "err", err)
		}
	}
	return nil
}

// shownAttempt is the merged attempt as the App's own runs show it, with
// what its overrides owe.
func shownAttempt(m *gh.MergedPull, r merge.Retro) closurerules.Attempt {
	a := closurerules.Attempt{PR: m.Number, MergeSHA: m.MergeSHA, Overridden: r.Overridden, RetroAudit: r.Evidence}
	if mr := gh.Latest(m.HeadRuns, checks.NameMerge); mr != nil {
		a.MergePassed = mr.Conclusion == string(checks.ConclusionSuccess)
	}
	if rb := gh.Latest(m.MergeRuns, checks.NameReadback); rb != nil {
		a.ReadbackPassed = rb.Conclusion == string(checks.ConclusionSuccess)
	}
	if c := gh.Latest(m.MergeRuns, checks.NameCertificate); c != nil && c.Conclusion == string(checks.ConclusionSuccess) {
		a.CertificateSHA256 = strings.TrimPrefix(c.ExternalID, checks.CertificateExternalIDPrefix)
	}
	return a
}
