package action

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// TagAuditorPart tags aep/lint's problem for a change to the auditor's
// part of run documents that no auditor approved.
const TagAuditorPart = "[auditor's part]"

// auditorPartProblems are the changes the pull request makes to the
// auditor's part of run folder f (aepkit reserves the plan of record and
// the execution guide to the Auditor): the guide's task definitions and
// its text outside them compared base to head (rundoc.CompareGuides), and
// any change to the plan of record. Each is a problem unless an owner or
// listed auditor other than the pull request's author approved the head
// (auditorApproval). Nil outside pull requests. A base that cannot be read
// is a problem, never "no change".
func (r *runner) auditorPartProblems(ctx context.Context, f folder) []lint.Problem {
	if r.ev.PR == nil {
		return nil
	}
	changes, err := r.auditorChanges(ctx, f)
	if err != nil {
		return []lint.Problem{{Tag: TagAuditorPart, File: rundoc.GuideFile, Line: 1, Message: err.Error()}}
	}
	if len(changes) == 0 {
		return nil
	}
	who, why := r.auditorApproval(ctx)
	if who != "" {
		r.gha.Infof("%s: the auditor's part of the run documents changed; approved at the head by %s", f.rel, who)
		return nil
	}
	for i := range changes {
		changes[i].Message = "changes the auditor's part of run documents: " + changes[i].Message + "; " + why
	}
	return changes
}

// auditorChanges lists folder f's changes to the auditor's part as
// problems without their approval's words.
func (r *runner) auditorChanges(ctx context.Context, f folder) ([]lint.Problem, error) {
	var out []lint.Problem
	base, head, err := r.baseAndHead(ctx, f, rundoc.GuideFile)
	if err != nil {
		return nil, err
	}
	lines := map[string]int{}
	for _, s := range rundoc.ParseGuide(rundoc.GuideFile, head).Sections {
		lines[s.ID] = s.Line
	}
	for _, c := range rundoc.CompareGuides(base, head) {
		out = append(out, lint.Problem{Tag: TagAuditorPart, ID: c.ID, File: rundoc.GuideFile, Line: max(lines[c.ID], 1), Message: c.String()})
	}
	base, head, err = r.baseAndHead(ctx, f, rundoc.PlanFile)
	if err != nil {
		return nil, err
	}
	if trimTrailing(base) != trimTrailing(head) {
		out = append(out, lint.Problem{Tag: TagAuditorPart, File: rundoc.PlanFile, Line: 1, Message: "the plan of record"})
	}
	return out, nil
}

// baseAndHead are document name of folder f at the pull request's base
// commit (through the API when the step has it, else the workspace's git
// objects) and in the workspace; "" where it is not.
func (r *runner) baseAndHead(ctx context.Context, f folder, name string) (base, head string, err error) {
	rel := path.Join(f.rel, name)
	b, err := os.ReadFile(filepath.Join(r.ev.Workspace, filepath.FromSlash(rel)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("read %s: %w", rel, err)
	}
	sha := r.ev.PR.BaseSHA
	if sha == "" {
		return "", "", fmt.Errorf("the event names no base commit, so changes to the auditor's part of %s cannot be judged", f.rel)
	}
	if r.api.Files != nil {
		data, _, err := r.api.Files.ReadFile(ctx, r.ev.Owner, r.ev.Repo, rel, sha)
		if err != nil {
			return "", "", fmt.Errorf("read %s at the base commit %s: %w", rel, gitsha.Short(sha), err)
		}
		return string(data), string(b), nil
	}
	repo, err := gitobj.Open(ctx, r.ev.Workspace)
	if err != nil {
		return "", "", fmt.Errorf("read %s at the base commit: %w", rel, err)
	}
	files, err := repo.Files(ctx, sha, []string{rel})
	if err != nil {
		return "", "", fmt.Errorf("read %s at the base commit %s (check out the full history: actions/checkout with fetch-depth: 0): %w", rel, gitsha.Short(sha), err)
	}
	if len(files) != 1 || files[0].Missing || files[0].Symlink {
		return "", string(b), nil
	}
	return string(files[0].Content), string(b), nil
}

// auditorApproval is the owner or listed auditor (in the config at the
// base, other than the pull request's author) whose approving review is at
// the head, or "" and what is missing. Without a token to read reviews and
// the base's config, no approval can be seen.
func (r *runner) auditorApproval(ctx context.Context) (string, string) {
	pr := r.ev.PR
	if r.api.Reviews == nil || r.api.Files == nil || r.cfg == nil {
		return "", "it needs an approving review at the head from an owner or a listed auditor, which the step cannot read without a token"
	}
	var deciders []string
	for _, l := range slices.Concat(r.cfg.AllOwners(), r.cfg.Auditors) {
		if !login.Equal(l, pr.Author) && !login.In(deciders, l) {
			deciders = append(deciders, l)
		}
	}
	reviews, _, err := r.api.Reviews.PullReviews(ctx, r.ev.Owner, r.ev.Repo, pr.Number)
	if err != nil {
		return "", "its approval could not be read: " + err.Error()
	}
	for _, rv := range reviews {
		if rv.State == "APPROVED" && rv.CommitID == pr.HeadSHA && rv.Type == "User" && login.In(deciders, rv.Login) {
			return rv.Login, ""
		}
	}
	return "", fmt.Sprintf("it needs an approving review at the head %s from one of %s (an owner or listed auditor other than the author)", gitsha.Short(pr.HeadSHA), orNobody(deciders))
}

// orNobody lists logins, or says there is nobody.
func orNobody(logins []string) string {
	if len(logins) == 0 {
		return "nobody (the config at the base lists no owner or auditor but the author)"
	}
	return "@" + strings.Join(logins, ", @")
}

// trimTrailing drops each line's trailing spaces and the trailing blank
// lines, and reads CRLF as LF.
func trimTrailing(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
