package cli

import (
	"regexp"
	"strings"
	"sync"
)

// ruleDoc is one rule as SARIF describes it: a friendly name, a one-line
// summary, the rule's text in Markdown (the same as its row in the docs,
// TestSARIFRuleDocsMatchTheDocs checks) and the docs page and anchor.
type ruleDoc struct {
	name, short, markdown, doc string
}

// lintDoc is where docs/run-documents.md lists lint's rules.
const lintDoc = "docs/run-documents.md#aepgate-lint-dir---annex-threshold-n---format-textjsonsarif"

// lintRuleDocs are lint's rules, L1 to L11 (docs/run-documents.md's table).
var lintRuleDocs = map[string]ruleDoc{
	"L1":  {"MissingReport", "Missing report.", "a `**Report:**` ID in the guide has no log heading (per occurrence)", lintDoc},
	"L2":  {"EmptyGuide", "Empty guide.", "the guide has no `###` heading whose ID contains a digit", lintDoc},
	"L3":  {"MissingReportLine", "Missing report line.", "a task or gate section has no `**Report:**` line naming an ID", lintDoc},
	"L4":  {"OrphanReport", "Orphan report.", "a log heading ID is neither a Report ID nor a heading ID of the guide", lintDoc},
	"L5":  {"GateWithoutNegativeControl", "Gate without a real negative control.", "a gate does not state a real negative control (see below); a scaffolded gate whose claim is still a `<placeholder>` is skipped until it is reported `DONE`", lintDoc},
	"L6":  {"DoneWithoutEvidence", "Done without evidence.", "a `DONE` heading has no fenced block of real output under `**Verify output:**`", lintDoc},
	"L7":  {"PhaseOrder", "Phase order.", "an item of phase *n* is `DONE` or judged while an item of an earlier phase is not effectively `APPROVED`", lintDoc},
	"L8":  {"DuplicateContent", "Duplicate content.", "a log paragraph of at least 120 characters (after normalizing whitespace) appears more than once", lintDoc},
	"L9":  {"AnnexCount", "Annex count.", "more annexes in total than `--annex-threshold` (default 6); `.gitkeep` never counts, other dot-files do", lintDoc},
	"L10": {"PlanUnfilled", "Plan unfilled.", "once any item is `DONE` or judged: Target outcome, Problem, Cost of doing nothing, Options (field or a filled Shaping table), Riskiest assumption or Non-goals is empty or a placeholder in a plan that has it (its bold label, or the template section holding it: Opportunity, Shaping, Non-goals); a plan of another shape, such as aepkit 0.5's numbered sections, is never flagged", lintDoc},
	"L11": {"DeferredOpen", "Deferred open.", "a deferred-ledger row (columns ID, What, Deferred to, Closed by) deferred to P*n* has an empty, `—` or `-` \"Closed by\" while a gate of P*n* is `DONE` or judged", lintDoc},
}

// plansDoc is where docs/plans.md lists plans verify's rules.
const plansDoc = "docs/plans.md#the-rules"

// plansRuleDocs are plans verify's rules (docs/plans.md's table).
var plansRuleDocs = map[string]ruleDoc{
	"contract":           {"ContractChanged", "The plan's contract, progress.json or a phase brief the base has, changed.", "`progress.json` changed, or a phase brief the base has (`the phase brief … is part of the plan's contract (its tasks, files and commands) and changed in this pull request`). It is the plan's contract and a contract path whatever the config says ([config.md](config.md)): the change needs an owner's approval through the App's contract-change gate (`aepgate/gates`, [gates.md](gates.md)); the Action and `plans verify` report it as a failure", plansDoc},
	"task-ids":           {"TaskIDMissingOrMoved", "A task ID of the base contract is missing at head, or moved to another phase.", "a task ID of the base contract is missing at head, or moved to another phase; a changed state file is for a phase the contract lacks, or lists a task that is not its phase's", plansDoc},
	"state-scope":        {"StateFileOutOfScope", "The change touches another phase's state file, any state file when it names no phase, or a review file while its author is not that phase's reviewer.", "the change touches another phase's state file, any state file when it names no phase, or a review file while its author is not that phase's reviewer", plansDoc},
	"phase-done":         {"PhaseMarkedDone", "A changed state file says the phase is done.", "a changed state file says `\"status\": \"done\"`", plansDoc},
	"task-commits":       {"TaskCommitNotItsOwn", "A task newly marked done names a commit that is not one of the pull request's commits, changes no file, is the base or the previous head, or is also an earlier task's commit.", "a task newly marked `done` names a commit that is not one of the pull request's commits, changes no file, is the base or the previous head, or is also an earlier task's commit (what an executor records when `git commit` had nothing to commit); an abbreviated SHA must match exactly one of the pull request's commits (none: \"not one of this pull request's commits\"; several: \"ambiguous\", write more digits)", plansDoc},
	"attempts":           {"TooManyFixAttempts", "A changed state file records a task with more than 2 fix attempts.", "a changed state file records a task with more than 2 fix `attempts` (\"two fix attempts, then stop\")", plansDoc},
	"blocks":             {"WorkOnABlockedTask", "A task listed in a failed task's blocks is done.", "a task listed in a failed task's `blocks` is `done` (work done on top of a blocking failure); or a failed task with non-empty `blocks` while the phase's status is not `blocked` (`in_progress` is accepted as the moment the failure is recorded, as the skill's own example shows; `needs_review` is a finding)", plansDoc},
	"worktree":           {"WorktreeOutsideRepository", "A recorded worktree is absolute, .. or outside the repository.", "a recorded `worktree` is absolute, `..` or outside the repository (`../repo-phase-2`); use `.worktrees/phase-N`", plansDoc},
	"self-review":        {"ReviewByTheExecutor", "A changed review file is in the name of the login that claimed the phase.", "a changed review file is in the name of the login that claimed the phase (`executor` / `claimed_by`)", plansDoc},
	"handoff":            {"HandoffIncomplete", "A phase moved to needs_review without a complete handoff in HANDOFF.md.", "the change moves a phase to `needs_review` (it was not there at base) and `HANDOFF.md` has no `## Handoff — phase N — <date>` heading, or lacks one of its `###` sections: `Where things stand`, `What changed`, `Decisions and why`, `Ruled out`, `Blockers`, `Next step` (the last such heading for phase N counts; its sections run to the next `##` heading)", plansDoc},
	"dependencies":       {"DependencyNotApproved", "The phase has a state file while a phase it depends on has no approving review file at base.", "the phase has a state file while a phase it depends on has no approving review file at base", plansDoc},
	"parallel":           {"UnsafeParallelPhases", "The phase runs beside another claimed, unapproved phase and not both are parallel_safe.", "the phase runs beside another claimed, unapproved phase and not both are `parallel_safe`", plansDoc},
	"conflict-zones":     {"ConflictZoneTouched", "The change touches a file in another phase's conflict_zones.", "the change touches a file in another phase's `conflict_zones`", plansDoc},
	"task-files":         {"TaskChangesUnlistedFile", "A task newly marked done, or a commit no task names, changes a file its phase brief does not list.", "a task newly marked `done` has a commit that changes a file outside the plan folder that its brief's `Files:` list lacks (`task \"2.1\"'s commit a1b2c3d changes src/server.ts, which plans/…/phases/phase-2-redis-backend.md:32 does not list for it (it lists …)`); another commit of the change (a state-file commit, work of a task not done) changes a file no task of the phase's brief lists and the change as a whole changes (so a merge of the base branch is none) (`commit … changes src/server.ts, which no task of this brief lists`); a done task has no `### Task <id>` section in its brief; in the skill's dialect, a done task's phase has no brief. Phases without a brief in aepgate's dialect are not checked", plansDoc},
	"task-preconditions": {"TaskPreconditionNotDone", "A task newly marked done before a task its brief names as a pre-condition was done.", "a task newly marked `done` while a task its brief names as a pre-condition (its `Pre-conditions:` line, or `Task <id>` in `## Pre-conditions`) is not done before its commit: done at base, its phase approved at base, or done at an earlier commit of the change (`task \"2.2\" is done at commit …, but task \"2.1\", a pre-condition of it (…:46), was done after it` / `is not done` / `is not a task of progress.json`)", plansDoc},
	"verify-commands":    {"VerifyCommandNotTheBriefs", "A recorded verification command differs from the plan's commands or the brief's verify_command.", "a changed skill-dialect state file's `verification.test`, `.lint` or `.build` records a command other than the base contract's `commands.test`, `.lint`, `.build` (`verification.lint ran \"true\", but progress.json's commands.lint is \"npm run lint\"`), or one the plan does not define; a task's `verify_command` in `progress.json` differs from its brief's", plansDoc},
	"schema":             {"FileDoesNotParse", "A file of the plan folder does not parse.", "a file of the folder does not parse or breaks its schema (not JSON, an unknown key, a required field missing, a value of the wrong form); the other rules are not run on that folder", plansDoc},
	"rerun":              {"RerunDoesNotReproduce", "A recorded exit code the re-run does not reproduce, or a recorded command the contract does not list.", "with the re-run: a recorded exit code the command does not reproduce; a recorded `0` that is really non-zero is a **false green**, reported with both codes and the output's tail; a recorded command the base contract's `verify_commands` does not list (it is not run); in the Action, any re-run under `pull_request_target` (none is run)", plansDoc},
}

// reviewRuleID is the one rule of review check: the review's aep-audit
// block and its evidence, as the App's aepgate/audit check judges them.
const reviewRuleID = "aep-audit"

// reviewRuleDocs is review check's rule (docs/audit.md).
var reviewRuleDocs = map[string]ruleDoc{
	reviewRuleID: {"AuditReview", "The review's aep-audit block or its evidence does not hold.",
		"the review's `aep-audit` block breaks the schema or the verdict rules, or a quote of its evidence is not found in the cited file at the commit (read from the git objects, never the working tree); the message names the field path",
		"docs/audit.md#checking-a-review-locally-aepgate-review-check"},
}

// docsLink matches a Markdown link to another docs page ("[config.md](config.md)").
var docsLink = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\]\(([a-z0-9_-]+\.md(#[^)]*)?)\)`)
})

// rule is the SARIF rule id as check documents it: a rule the docs do not
// list (which TestSARIFRulesAreDocumented keeps from happening) still gets
// its id and the docs home.
func (c sarifCheck) rule(id string) sarifRule {
	d, ok := c.rules[id]
	if !ok {
		d = ruleDoc{name: "Rule" + id, short: c.tool + " rule " + id + ".", markdown: c.tool + " rule " + id, doc: "README.md"}
	}
	url := homepage + "/blob/main/" + d.doc
	md := docsLink().ReplaceAllString(d.markdown, "]("+homepage+"/blob/main/docs/$1)")
	text := plainText(d.markdown)
	return sarifRule{
		ID: id, Name: d.name, ShortDescription: sarifText{Text: d.short},
		FullDescription: sarifText{Text: sentence(text)},
		Help: sarifHelp{
			Text:     sentence(text) + " See " + url,
			Markdown: sentence(md) + "\n\nSee [" + strings.SplitN(d.doc, "#", 2)[0] + "](" + url + ").",
		},
		HelpURI: url, Default: sarifDefaults{Level: "error"},
	}
}

// plainText is Markdown without its emphasis, code marks and link targets.
func plainText(md string) string {
	s := strings.NewReplacer("`", "", "*", "").Replace(md)
	return mdLink().ReplaceAllString(s, "$1")
}

// mdLink matches a Markdown link, its text the first group.
var mdLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]+)\]\([^)]+\)`) })

// sentence is s with a capital first letter and a final period.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
