// Package snapshot holds the nouns of one pull request's evaluation: what
// GitHub said about the pull request, its work unit, the conversation around
// them and the repository config, read once by internal/gh and handed to the
// App's pure check evaluators. Types only: no I/O and no behaviour beyond
// small lookups on the values themselves.
package snapshot

import (
	"time"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// PR is everything one evaluation of a pull request may read. Parts that no
// enabled check needs are left empty (see Needs); Has says which were read.
type PR struct {
	// Repo is the repository's owner/name.
	Repo string
	// DefaultBranch is the repository's default branch name.
	DefaultBranch string
	// Config is the repository config file on the default branch.
	Config ConfigFile
	// Pull is the pull request; nil when the number names no pull request.
	Pull *Pull
	// Units holds the issues read as candidate work units, by number; a nil
	// value means the number names no issue.
	Units map[int]*workunit.Issue
	// UnitComments are the comments of each unit issue in Units (read only
	// when Has.Conversation).
	UnitComments map[int]Thread
	// UnitAttempts are, for each unit issue in Units, the pull requests
	// GitHub recorded as mentioning it, with their conversations (read only
	// when Has.Conversation). They include the evaluated pull request.
	UnitAttempts map[int]Attempts
	// Control is the repository's control issue (label aepgate:control);
	// nil when it does not exist or Has.Conversation is false.
	Control *ControlIssue
	// IssuesUnreadable is GitHub's refusal when the App may not read
	// issues (it lacks Issues: read), so the control issue could not be
	// looked for; empty otherwise.
	IssuesUnreadable string
	// Lanes are the open same-repository pull requests that name a story of
	// the unit's milestone as their one work unit, the evaluated one among
	// them (read only when Has.Lanes; nil when the unit has no milestone).
	Lanes []workunit.Lane
	// LanesUnread are the stories of the unit's milestone whose open
	// attempts could not all be read (GitHub holds more mentions of them
	// than were read, and the App's attempt index could not vouch for
	// them): Lanes lacks some of theirs, so the WIP limits cannot be judged.
	LanesUnread []int
	// NativeBlockers is false when the server has no issue dependencies
	// (blocked-by), so only a contract's depends_on could be checked.
	NativeBlockers bool
	// Has says which optional parts were read.
	Has Needs
}

// Needs names the optional parts of a snapshot; a check declares what it
// reads, and parts no enabled check needs are not fetched.
type Needs struct {
	// Conversation: comments and reviews of the pull request, its unit
	// issue and the control issue, and the pull request's review requests.
	Conversation bool
	// Files: the paths the pull request changes.
	Files bool
	// Commits: the pull request's commits with their authors and committers.
	Commits bool
	// HeadChecks: every check run and workflow run at the head, not only the
	// App's own.
	HeadChecks bool
	// Lanes: the open attempts of every story of the unit's milestone, for
	// the WIP limits.
	Lanes bool
}

// Union is what n and o need together.
func (n Needs) Union(o Needs) Needs {
	return Needs{
		Conversation: n.Conversation || o.Conversation,
		Files:        n.Files || o.Files,
		Commits:      n.Commits || o.Commits,
		HeadChecks:   n.HeadChecks || o.HeadChecks,
		Lanes:        n.Lanes || o.Lanes,
	}
}

// ConfigFile is the repository config as held on the default branch.
type ConfigFile struct {
	// Found is false when the file does not exist (the defaults apply).
	Found bool
	// Text is the file's content.
	Text string
	// Truncated is set when GitHub would not return the whole file inline.
	Truncated bool
	// CommitSHA is the default-branch commit the file was read at.
	CommitSHA string
	// Unreadable is GitHub's refusal when the App may not read the file
	// (it lacks Contents: read); empty otherwise.
	Unreadable string
	// Base is the base policy the file extends, as read for it; nil when
	// the file extends none (or has not been looked at for one).
	Base *BaseFile
}

// Pull is a pull request as the checks need it.
type Pull struct {
	Number int
	// URL is the pull request's web page.
	URL  string
	Body string
	// State is OPEN, CLOSED or MERGED.
	State   string
	HeadSHA string
	// HeadAt is the head commit's committer date (set by whoever made the
	// commit, so never evidence of when it was pushed).
	HeadAt  time.Time
	HeadRef string
	BaseRef string
	// BaseSHA is the base branch's commit GitHub compares the pull request
	// with (baseRefOid).
	BaseSHA string
	Author  Actor
	// Runs are this App's check runs on the head commit, so a run that
	// already shows what an evaluation decided is not written again.
	Runs []ExistingRun
	// RunsKnown is false when GitHub did not list the head commit, so Runs
	// says nothing (not "no runs").
	RunsKnown bool
	// HeadChecks are all check runs at the head (Has.HeadChecks).
	HeadChecks []HeadCheck
	// Workflows are the GitHub Actions workflow runs at the head
	// (Has.HeadChecks), each with its newest attempt's state.
	Workflows []WorkflowRun
	// WorkflowsUnreadable is GitHub's refusal when the App may not read
	// workflow runs (it lacks Actions: read); empty otherwise.
	WorkflowsUnreadable string
	// Commits are the pull request's commits, oldest first (Has.Commits).
	Commits []Commit
	// Files are the changed paths (Has.Files).
	Files []File
	// Conversation holds the pull request's comments and reviews
	// (Has.Conversation).
	Conversation Thread
	// Reviews are the pull request's reviews, oldest first
	// (Has.Conversation).
	Reviews []Review
	// ReviewRequests are the logins of users asked to review
	// (Has.Conversation).
	ReviewRequests []string
	// Truncated names the lists GitHub held more of than were read, e.g.
	// "files"; a check that needs a whole list must fail closed on it.
	Truncated []string
}

// IsTruncated reports whether the list called name was cut short.
func (p *Pull) IsTruncated(name string) bool {
	for _, t := range p.Truncated {
		if t == name {
			return true
		}
	}
	return false
}

// Actor is who wrote something: a login and GitHub's account type (User,
// Bot, Organization, Mannequin, EnterpriseUserAccount).
type Actor struct {
	Login string
	Type  string
}

// ExistingRun is a check run already on a commit, as GitHub reports it
// (status and conclusion in lower case, as the REST API writes them).
type ExistingRun struct {
	// ID is the run's database ID; the highest of a name is the one GitHub
	// shows.
	ID                                                                     int64
	Name, Status, Conclusion, Title, Summary, Text, ExternalID, DetailsURL string
}

// HeadCheck is any App's check run at the head, with the workflow run it
// belongs to when GitHub Actions made it.
type HeadCheck struct {
	ExistingRun
	// AppID and AppSlug name the App that wrote the run.
	AppID   int64
	AppSlug string
	// WorkflowRunID is the GitHub Actions run's ID (0 for other Apps);
	// Workflow is its workflow's name.
	WorkflowRunID int64
	Workflow      string
}

// WorkflowRun is one GitHub Actions workflow run: its immutable ID (a
// re-run keeps it), its workflow's name and its newest attempt's status and
// conclusion (lower case).
type WorkflowRun struct {
	ID                                  int64
	Workflow, Event, Status, Conclusion string
	URL                                 string
	// Updated is when the run last changed (GitHub's updatedAt).
	Updated time.Time
}

// Commit is one commit of a pull request.
type Commit struct {
	SHA string
	// AuthorLogin and CommitterLogin are empty when the e-mail matches no
	// GitHub account.
	AuthorName, AuthorEmail, AuthorLogin          string
	CommitterName, CommitterEmail, CommitterLogin string
}

// File is one path a pull request changes and how (ADDED, MODIFIED,
// DELETED, RENAMED, COPIED, CHANGED).
type File struct {
	Path       string
	ChangeType string
}

// Thread is the comments of one issue or pull request, oldest first.
type Thread struct {
	Comments []Comment
	// Truncated is set when GitHub held more comments than were read.
	Truncated bool
	// Paged is set when the thread was longer than the snapshot's first
	// read, so it was read again back to the App's mark (ThreadMarker).
	Paged bool
	// ReadFrom is the lowest comment ID the read reached when it stopped
	// at the App's mark: every comment from it on was read, older ones were
	// not (the App keeps their decisions). 0: read from the first comment.
	ReadFrom int64
}

// Comment is one issue or pull-request comment.
type Comment struct {
	ID      int64
	URL     string
	Body    string
	Author  Actor
	Created time.Time
	Updated time.Time
	// Edited is set when GitHub reports an edit (lastEditedAt).
	Edited bool
	// EditedBy is the login GitHub names as the comment's last editor
	// ("" when none or not shown).
	EditedBy string
}

// Review is one pull-request review.
type Review struct {
	ID  int64
	URL string
	// State is APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING.
	State     string
	Body      string
	Author    Actor
	CommitSHA string
	Submitted time.Time
	Edited    bool
}

// Attempts are the pull requests that mention a unit's issue.
type Attempts struct {
	Pulls []Attempt
	// Truncated is set when GitHub held more mentions than were read.
	Truncated bool
}

// Attempt is a pull request that mentions a unit, as the gates replay
// needs it.
type Attempt struct {
	Number int
	// State is OPEN, CLOSED or MERGED.
	State, Body, HeadSHA string
	// CrossRepository is set when the pull request is in another
	// repository.
	CrossRepository bool
	Conversation    Thread
	Reviews         []Review
	// ReviewsTruncated is set when GitHub held more reviews than were read.
	ReviewsTruncated bool
}

// ControlIssue is the repository's control issue, where project-wide HOLDs
// and project gates are made.
type ControlIssue struct {
	Number int
	URL    string
	Thread Thread
}

// Latest returns the newest of the App's runs called name (GitHub shows
// only that one), or nil.
func (p *Pull) Latest(name string) *ExistingRun {
	var last *ExistingRun
	for i := range p.Runs {
		if p.Runs[i].Name == name && (last == nil || p.Runs[i].ID > last.ID) {
			last = &p.Runs[i]
		}
	}
	return last
}
