package command

import "strings"

// form is one valid command and what it does.
type form struct{ syntax, meaning string }

var forms = []form{
	{"hold <reason>", "put this work unit (or, on the control issue, the whole project) on HOLD"},
	{"resume", "lift the HOLD (owners only)"},
	{"resolve <gate-id> <choice>", "answer an open gate with one of its choices (owners only)"},
	{"status", "show the gates and HOLD that apply here"},
	{"recheck", "evaluate the gates again now"},
	{"merge", "merge this pull request at the head its checks judged, once every aepgate check on it is green: into the merge queue, else by auto-merge (owners or merge.authority; docs/merge.md)"},
	{"close <reason>", "count this closed work unit as done without a certificate (owners only; docs/closure.md)"},
	{"accept <milestone-number> <sha>", "accept the increment's integrated commit, named by its full SHA (owners only, on the control issue; docs/increment.md)"},
	{"accept-merge <merge-sha>", "accept a merge made without merge authority, named by its merge commit's full SHA (owners only, on the merged pull request; docs/evidence.md)"},
	{"override <check> <reason>", "make one aepgate check (aepgate/work-unit, aepgate/gates, aepgate/audit or aepgate/merge) succeed for this pull request's head; the merge then owes a retro-audit (owners only, on the pull request; docs/merge.md)"},
	{"waive <reason>", "settle the retro-audit an overridden merge owes without an audit (owners only, on the merged pull request; docs/merge.md)"},
	{"dispose <finding> fixed|refuted|duplicate|outside_scope -- <reason>", "propose how an audit finding is settled, with evidence quotes in an aep-evidence block; only an auditor's later review closes it"},
}

// Forms returns the valid command forms with prefix, e.g.
// "/aep resolve <gate-id> <choice>". An empty prefix means DefaultPrefix.
func Forms(prefix string) []string {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = prefix + " " + f.syntax
	}
	return out
}

// Usage is the Markdown list of valid commands for a reply: one bullet per
// form, the command in a code span. No line of it is itself a command.
func Usage(prefix string) string {
	var b strings.Builder
	for i, f := range Forms(prefix) {
		b.WriteString("- `" + f + "`: " + forms[i].meaning + "\n")
	}
	return b.String()
}
