// Package compliance holds the compliance log's verdicts (APPROVED,
// CONDITIONAL, REJECTED) to the protocol: they belong to the auditor
// alone. Given who introduced each line of the log (git blame at the head)
// and the auditors list of the base branch's config, each verdict line
// introduced by anyone not listed, or by the executor who reported the
// task, is a finding on that line. Who introduced a line is the account
// GitHub verified the introducing commit's signature for (SignedAuthor),
// never an e-mail. The package is pure: the parsed log, the blame, what
// GitHub says of each commit and the list in, findings out.
package compliance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// Author is who introduced one line: the GitHub login the commit that
// last changed it proves (AuthorRule; "" when it proves none) and that
// commit.
type Author struct {
	Login, Commit string
	// Claimed are the logins the commit names without proof (Commit);
	// they add to a task's executors, never make a verdict's author.
	Claimed []string
	// Unproven says why Login is "" (the AuthorRule's clause).
	Unproven string
}

// Input is one compliance log to judge.
type Input struct {
	// File is the log's repository path; Log the parsed log.
	File string
	Log  *rundoc.Log
	// Blame is who introduced each 1-based line of the log at the head.
	Blame map[int]Author
	// Auditors are the auditors of the base branch's config, logins and
	// teams ("@org/team"); empty means the check cannot tell who may give
	// verdicts.
	Auditors []string
	// Members are the members of each team in Auditors, by
	// config.Team.Key; Unread says, by the same key, why a team's members
	// could not be read. A team in neither has its members unread.
	Members map[string][]string
	Unread  map[string]string
}

// Verdict is one verdict line of the log: a "### <ID> — <VERDICT>" heading
// or a status-board cell.
type Verdict struct {
	ID, Word string
	Line     int
	By       Author
	// Executors are who introduced the task's own report headings (DONE,
	// BLOCKED, …): the task's executor.
	Executors []string
}

// Finding is one verdict a rule refuses, on its line.
type Finding struct {
	Rule    string
	Line    int
	Message string
}

// Rule is one rule a verdict line must pass: Check says why not, or "".
type Rule struct {
	Name  string
	Check func(Verdict, Input) string
}

// DefaultRules are the verdict rules, in the order their refusals are
// reported.
func DefaultRules() []Rule {
	return []Rule{{"known-author", KnownAuthor}, {"listed-auditor", ListedAuditor}, {"not-executor", NotExecutor}}
}

// Without returns rules minus the one called name (for a negative
// control).
func Without(rules []Rule, name string) []Rule {
	return slices.DeleteFunc(slices.Clone(rules), func(r Rule) bool { return r.Name == name })
}

// NoAuditors is why the check passes neutral without an auditors list.
const NoAuditors = "the base branch's config lists no auditors, so who may give a verdict cannot be told; " +
	"list them under auditors: in .github/aepgate.yml to have each verdict line checked"

// Check judges every verdict line of in.Log with rules. Without auditors
// it judges nothing and neutral is NoAuditors.
func Check(in Input, rules []Rule) (verdicts []Verdict, findings []Finding, neutral string) {
	verdicts = Lines(in)
	if len(in.Auditors) == 0 {
		return verdicts, nil, NoAuditors
	}
	for _, v := range verdicts {
		for _, r := range rules {
			if why := r.Check(v, in); why != "" {
				findings = append(findings, Finding{Rule: r.Name, Line: v.Line, Message: why})
				break
			}
		}
	}
	return verdicts, findings, ""
}

// Lines lists the log's verdict lines (headings, then board cells, each
// in document order) with who introduced them and each task's executors.
func Lines(in Input) []Verdict {
	if in.Log == nil {
		return nil
	}
	executors := map[string][]string{}
	for _, h := range in.Log.Headings {
		if rundoc.IsVerdict(h.State) {
			continue
		}
		by := in.Blame[int(h.Line)]
		for _, l := range append([]string{by.Login}, by.Claimed...) {
			if l != "" && !login.In(executors[h.ID], l) {
				executors[h.ID] = append(executors[h.ID], l)
			}
		}
	}
	var out []Verdict
	add := func(id, word string, line int) {
		out = append(out, Verdict{ID: id, Word: word, Line: line, By: in.Blame[line], Executors: executors[id]})
	}
	for _, h := range in.Log.Headings {
		if rundoc.IsVerdict(h.State) {
			add(h.ID, h.State, int(h.Line))
		}
	}
	if b := in.Log.Board; b != nil {
		for _, r := range b.Rows {
			if rundoc.IsVerdict(r.Verdict) {
				add(r.ID, r.Verdict, r.Line)
			}
		}
	}
	return out
}

// KnownAuthor refuses a verdict line whose commit proves no author (its
// Unproven says why): it fails closed.
func KnownAuthor(v Verdict, _ Input) string {
	if v.By.Login != "" {
		return ""
	}
	return unproven(v)
}

// ListedAuditor refuses a verdict introduced by anyone not in auditors,
// by login or as a member of a listed team. When a listed team's members
// could not be read it says so: the verdict fails closed.
func ListedAuditor(v Verdict, in Input) string {
	var unread []string
	for _, a := range in.Auditors {
		t, isTeam := config.ParseTeam(a)
		switch {
		case !isTeam && login.Equal(a, v.By.Login):
			return ""
		case !isTeam:
		case login.In(in.Members[t.Key()], v.By.Login):
			return ""
		case in.Unread[t.Key()] != "":
			unread = append(unread, in.Unread[t.Key()])
		default:
			if _, read := in.Members[t.Key()]; !read {
				unread = append(unread, "the members of "+a+" were not read")
			}
		}
	}
	msg := fmt.Sprintf("%s %s was introduced by %s (commit %s), who is not listed in auditors (%s)",
		v.ID, v.Word, v.By.Login, gitsha.Short(v.By.Commit), strings.Join(in.Auditors, ", "))
	if len(unread) > 0 {
		return msg + " by login, and whether they are in a listed team cannot be told: " + strings.Join(unread, "; ")
	}
	return msg + "; verdicts belong to the auditor alone"
}

// NotExecutor refuses a verdict introduced by the executor who reported
// the task, listed as an auditor or not: nobody judges their own work.
func NotExecutor(v Verdict, _ Input) string {
	if !slices.ContainsFunc(v.Executors, func(e string) bool { return login.Equal(e, v.By.Login) }) {
		return ""
	}
	return fmt.Sprintf("%s %s was introduced by %s (commit %s), who also reported %s: an executor cannot give its own task a verdict",
		v.ID, v.Word, v.By.Login, gitsha.Short(v.By.Commit), v.ID)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
