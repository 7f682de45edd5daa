package readback

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/merge"
)

// RoleReader says a login's live role on a repository (gh.Installation).
type RoleReader interface {
	Role(ctx context.Context, owner, repo, login string) (string, error)
}

// Reactor reacts to a comment (gh.Installation).
type Reactor interface {
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
}

// AuthorityRule judges a merge's authority (merge.Authority; a negative
// control hands in one that holds every merge).
type AuthorityRule func(merge.AuthorityInput) merge.AuthorityResult

// writeRoles are the live roles an owner's acceptance needs.
var writeRoles = map[string]bool{"write": true, "maintain": true, "admin": true}

// authority judges who merged m against merge.authority: the merger from
// GitHub's mergedBy, an owner's accept-merge from the pull request's
// comments, its author's live role read from GitHub. An invalid config
// decides nothing here (readback fails on it already).
func (j *Judge) authority(ctx context.Context, in Input, m *gh.MergedPull, cfg *config.Config) (merge.AuthorityResult, error) {
	rule := j.Rules.Authority
	if rule == nil {
		rule = merge.Authority
	}
	if cfg == nil {
		return merge.AuthorityResult{Held: true, Authority: merge.AuthorityUnchecked, MergedBy: m.MergedBy.Login}, nil
	}
	if len(cfg.Merge.Authority) > 0 {
		// The owners as every judge resolves them (app/owners): teams and
		// CODEOWNERS included; an unreadable source names nobody.
		resolved, _, err := j.Rules.People.Resolved(ctx, in.Owner, in.Repo, m.Config.CommitSHA, cfg)
		if err != nil {
			return merge.AuthorityResult{}, fmt.Errorf("merge authority of %s/%s#%d: %w", in.Owner, in.Repo, m.Number, err)
		}
		cfg = resolved
	}
	ain := merge.AuthorityInput{Authority: cfg.Merge.Authority, Owners: cfg.Owners, MergeSHA: m.MergeSHA, Prefix: cfg.CommandPrefix,
		MergedBy: merge.Actor{Login: m.MergedBy.Login, Type: m.MergedBy.Type}, Writers: map[string]bool{}}
	for _, c := range m.Comments.Comments {
		ain.Comments = append(ain.Comments, merge.Comment{ID: c.ID, Author: merge.Actor{Login: c.Author.Login, Type: c.Author.Type}, Body: c.Body, Edited: c.Edited})
	}
	for _, l := range merge.AcceptanceAuthors(ain) {
		role, err := j.GitHub.Roles.Role(ctx, in.Owner, in.Repo, l)
		if err != nil {
			return merge.AuthorityResult{}, fmt.Errorf("merge authority of %s/%s#%d: %w", in.Owner, in.Repo, m.Number, err)
		}
		ain.Writers[strings.ToLower(l)] = writeRoles[role]
	}
	return rule(ain), nil
}

// recorded is what the certificate records of a merge's authority; nil
// when merge.authority is unset (nothing was checked).
func recorded(a merge.AuthorityResult) *certificate.MergeAuthority {
	if !a.Held || a.Authority == merge.AuthorityUnchecked || a.Authority == "" {
		return nil
	}
	return &certificate.MergeAuthority{MergedBy: a.MergedBy, Authority: a.Authority, AcceptedBy: a.AcceptedBy, AcceptanceCommentID: a.Acceptance}
}

// mergerOf names who merged for a note.
func mergerOf(a merge.AuthorityResult) string {
	if a.MergedBy == "" {
		return "an account GitHub no longer names"
	}
	return "@" + a.MergedBy
}

// answerAcceptance puts 👍 on the owner's accept-merge comment once the
// certificate it released is written (nil React: none).
func (j *Judge) answerAcceptance(ctx context.Context, in Input, c *issued) error {
	if j.GitHub.React == nil || c.authority == nil || c.authority.AcceptanceCommentID == 0 {
		return nil
	}
	if err := j.GitHub.React.React(ctx, in.Owner, in.Repo, c.authority.AcceptanceCommentID, "+1"); err != nil {
		return fmt.Errorf("react to comment %d: %w", c.authority.AcceptanceCommentID, err)
	}
	return nil
}
