package action

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/gitblame"
	"github.com/aepgate/aepgate/protocol/compliance"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// verdictAuthors is who introduced each heading and board line of log,
// blamed as lines: the account the line's commit proves
// (Options.AuthorRule: by default the account GitHub verified the
// commit's signature for) and the logins the commit only claims (its git
// author's noreply address, the account GitHub links to its author
// e-mail). The commits not read yet are read from GitHub at once; cache
// keeps them for the step's other folders.
func (r *runner) verdictAuthors(ctx context.Context, log *rundoc.Log, lines map[int]gitblame.Line, cache map[string]compliance.Commit) (map[int]compliance.Author, error) {
	wanted := logLines(log)
	var missing []string
	for _, n := range wanted {
		if l, ok := lines[n]; ok {
			if _, read := cache[l.Commit]; !read && !slices.Contains(missing, l.Commit) {
				missing = append(missing, l.Commit)
			}
		}
	}
	unread := map[string]compliance.Commit{}
	switch {
	case len(missing) == 0:
	case r.api.Commits != nil:
		proofs, err := r.api.Commits.CommitProofs(ctx, r.ev.Owner, r.ev.Repo, missing)
		if err != nil {
			return nil, err
		}
		for _, sha := range missing {
			cache[sha] = commitFacts(proofs[sha], blameMail(lines, sha))
		}
	case len(compliance.Lines(compliance.Input{Log: log})) > 0:
		return nil, errors.New("a verdict line counts when GitHub verified its commit's signature for an auditor, which the step reads with its token: give the step input token (contents: read)")
	default: // no verdict to judge: the claims still name the executors
		for _, sha := range missing {
			unread[sha] = commitFacts(gh.CommitProof{SHA: sha}, blameMail(lines, sha))
		}
	}
	out := map[int]compliance.Author{}
	for _, n := range wanted {
		l, ok := lines[n]
		if !ok {
			continue
		}
		c, read := cache[l.Commit]
		if !read {
			c = unread[l.Commit]
		}
		out[n] = compliance.Attribute(c, r.o.AuthorRule)
	}
	return out, nil
}

// logLines are the log's heading and status-board lines: the lines whose
// authors the verdict rules read.
func logLines(log *rundoc.Log) []int {
	if log == nil {
		return nil
	}
	var out []int
	for _, h := range log.Headings {
		out = append(out, int(h.Line))
	}
	if log.Board != nil {
		for _, row := range log.Board.Rows {
			out = append(out, row.Line)
		}
	}
	return out
}

// blameMail is the git author e-mail blame gave commit sha.
func blameMail(lines map[int]gitblame.Line, sha string) string {
	for _, l := range lines {
		if l.Commit == sha && l.AuthorMail != "" {
			return l.AuthorMail
		}
	}
	return ""
}

// commitFacts is what the verdict rules know of one commit: GitHub's
// proof, and the logins its author e-mail claims.
func commitFacts(p gh.CommitProof, mail string) compliance.Commit {
	c := compliance.Commit{SHA: p.SHA, Known: p.Found,
		Signature: compliance.Signature{State: p.State, Valid: p.Valid, Signer: p.Signer, ByGitHub: p.ByGitHub}}
	for _, l := range []string{gitblame.NoreplyLogin(mail), p.AuthorLogin} {
		if l != "" && !login.In(c.Claimed, l) {
			c.Claimed = append(c.Claimed, l)
		}
	}
	return c
}

// auditorSet is the base config's auditors with the members of its
// teams, or why they could not be read.
type auditorSet struct {
	list    []string
	members map[string][]string // by config.Team.Key
	unread  map[string]string   // by config.Team.Key
}

// auditorTeams reads the members of each team in auditors, with input
// members-token when given, else the step's token. A team whose members
// cannot be read is in unread with a one-line reason: a verdict by anyone
// not otherwise listed then fails closed.
func (r *runner) auditorTeams(ctx context.Context, auditors []string) auditorSet {
	set := auditorSet{list: auditors, members: map[string][]string{}, unread: map[string]string{}}
	var teams TeamReader
	for _, a := range auditors {
		t, ok := config.ParseTeam(a)
		if !ok {
			continue
		}
		if _, done := set.members[t.Key()]; done || set.unread[t.Key()] != "" {
			continue
		}
		if teams == nil {
			var err error
			if teams, err = r.teamReader(); err != nil {
				set.unread[t.Key()] = fmt.Sprintf("the members of %s cannot be read: %v", t, err)
				continue
			}
		}
		m, err := teams.TeamMembers(ctx, t.Org, t.Slug)
		if err != nil {
			set.unread[t.Key()] = r.teamUnread(t, err)
			continue
		}
		set.members[t.Key()] = m
	}
	return set
}

// membersHint is how to give the step a token that reads team members.
const membersHint = "give the step input members-token: a personal token with read:org, or a GitHub App installation token with the organization permission members: read"

// teamReader is input members-token's connection, else the step's.
func (r *runner) teamReader() (TeamReader, error) {
	if r.in.MembersToken == "" {
		if r.api.Teams == nil {
			return nil, errors.New("the step has no token; " + membersHint)
		}
		return r.api.Teams, nil
	}
	if r.o.GitHub == nil {
		return nil, errors.New("input members-token was given but no GitHub connector")
	}
	g, err := r.o.GitHub(r.ev.APIURL, r.in.MembersToken)
	if err != nil {
		return nil, fmt.Errorf("input members-token: %w", err)
	}
	if g.Teams == nil {
		return nil, errors.New("input members-token opens no team reader")
	}
	return g.Teams, nil
}

// teamUnread says why team's members could not be read and what to give.
func (r *runner) teamUnread(t config.Team, err error) string {
	via := "the step's token"
	if r.in.MembersToken != "" {
		via = "input members-token"
	}
	switch {
	case errors.Is(err, gh.ErrTeamForbidden) && r.in.MembersToken == "":
		return fmt.Sprintf("the step's token may not read the members of %s (a workflow's GITHUB_TOKEN never can); %s", t, membersHint)
	case errors.Is(err, gh.ErrTeamForbidden):
		return fmt.Sprintf("input members-token may not read the members of %s; it needs read:org (a personal token) or the organization permission members: read (a GitHub App token)", t)
	case errors.Is(err, gh.ErrTeamHidden):
		return fmt.Sprintf("GitHub shows %s no team %s: it does not exist, or the token cannot see it; %s", via, t, membersHint)
	}
	return fmt.Sprintf("the members of %s could not be read with %s: %v", t, via, err)
}
