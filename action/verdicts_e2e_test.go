package action

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/compliance"
)

// verdictCommit makes the pull request's verdict commit on unit-12 with
// files and returns its SHA.
type verdictCommit func(f *ghfake.Fake, repo *ghfake.Repo, files map[string]string) string

// signedBy is an honest verdict commit by login, signed with a key GitHub
// verified for login.
func signedBy(login string) verdictCommit {
	return func(_ *ghfake.Fake, repo *ghfake.Repo, files map[string]string) string {
		sha := repo.CommitBy(login, "unit-12", "verdict", files)
		repo.SignCommit(sha, ghfake.Verification{Signer: login})
		return sha
	}
}

// forgedAs is the attack: pusher commits the verdict under as's GitHub
// noreply e-mail (git author and committer), signed as sig (nil: not
// signed).
func forgedAs(pusher, as string, sig *ghfake.Verification) verdictCommit {
	return func(f *ghfake.Fake, repo *ghfake.Repo, files map[string]string) string {
		mail := fmt.Sprintf("%d+%s@users.noreply.github.com", f.UserID(as), as)
		sha := repo.PushAs(pusher, "unit-12", "verdict", ghfake.Signature{Name: as, Email: mail}, files)
		if sig != nil {
			repo.SignCommit(sha, *sig)
		}
		return sha
	}
}

// newVerdictsEnv is a pull request whose compliance log gets P0-T1's DONE
// report from exec and then its APPROVED heading from verdict; the base
// config lists auditors (none when empty).
func newVerdictsEnv(t *testing.T, auditors string, verdict verdictCommit) *stepEnv {
	t.Helper()
	e := &stepEnv{t: t, f: ghfake.New(t)}
	e.repo = e.f.CreateRepo("acme/widgets")
	cfg := "version: 1\nrun_documents: [docs/run]\n"
	if auditors != "" {
		cfg += "auditors: [" + auditors + "]\n"
	}
	e.base = e.repo.Commit("main", "add config", map[string]string{".github/aepgate.yml": cfg})
	e.repo.Branch("unit-12", "main")
	guide := "# Execution guide\n\n# Phase 0 — Work\n\n### P0-T1 — Check\n\n**Verify:**\n```bash\ntrue\n```\n\n**Report:** `P0-T1`\n"
	log := "# Compliance log\n\n### P0-T1 — DONE\n\n**Verify output:**\n```\nok\n```\n"
	e.repo.CommitBy("exec", "unit-12", "report", map[string]string{"docs/run/plan-of-record.md": "# Plan of record\n",
		"docs/run/execution-guide.md": guide, "docs/run/compliance-log.md": log})
	e.head = verdict(e.f, e.repo, map[string]string{"docs/run/compliance-log.md": log + "\n### P0-T1 — APPROVED\n"})
	for range prNumber - 1 {
		e.repo.OpenIssue("octo", "earlier issue", "")
	}
	e.repo.OpenPR("exec", "unit-12", "main", "Check", "Check.")
	e.ws = mirrorGit(t, e.f.Client(e.f.ActionsToken(e.repo, writable)), e.head)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "event.json"), e.event("Check."))
	e.vars = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_SHA": strings.Repeat("e", 40),
		"GITHUB_API_URL": strings.TrimSuffix(e.f.URL(), "/"), "GITHUB_WORKSPACE": e.ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
		"INPUT_TOKEN": e.f.ActionsToken(e.repo, writable), "INPUT_CHECKS": "verdicts",
	}
	return e
}

// claimedAuthor is the rule before issue 40, for the negative control: a
// commit is by the login its git author e-mail names (a GitHub noreply
// address) or GitHub links to that e-mail.
func claimedAuthor(c compliance.Commit) (string, string) {
	if len(c.Claimed) > 0 {
		return c.Claimed[0], ""
	}
	return "", "which is linked to no GitHub account"
}

// TestActionVerdicts: a verdict line counts only when GitHub verified its
// commit's signature for a listed auditor who did not report the task.
// The executor committing the verdict under the auditor's noreply e-mail
// is refused, saying what is missing, and passes again under the e-mail
// rule (the negative control); so does each rule's attack once the rule is
// left out. A commit signed by another account, or signed by GitHub
// itself (web-flow), proves no auditor. Without auditors the check is
// neutral and says so.
func TestActionVerdicts(t *testing.T) {
	tests := []struct {
		name, auditors string
		verdict        verdictCommit
		want           string
		wantMsg        string // a part of the refusal
		// control makes the attack pass: a rule left out, or the e-mail
		// author rule.
		without string
		rule    compliance.AuthorRule
	}{
		{name: "an auditor approves, signed", auditors: "ann", verdict: signedBy("ann"), want: "success"},
		{name: "the executor commits as the auditor, unsigned", auditors: "ann", verdict: forgedAs("exec", "ann", nil), want: "failure",
			wantMsg: "P0-T1 APPROVED introduced by commit %s, which carries no signature GitHub verified for an auditor; sign the commit",
			rule:    claimedAuthor},
		{name: "the executor commits as the auditor, signs as itself", auditors: "ann", verdict: forgedAs("exec", "ann", &ghfake.Verification{Signer: "exec"}),
			want: "failure", wantMsg: "P0-T1 APPROVED was introduced by exec (commit %s), who is not listed in auditors (ann)", rule: claimedAuthor},
		{name: "signed with a key GitHub did not verify", auditors: "ann", verdict: forgedAs("exec", "ann", &ghfake.Verification{Signer: "ann", State: "UNVERIFIED_EMAIL"}),
			want: "failure", wantMsg: "whose signature GitHub did not verify (UNVERIFIED_EMAIL)", rule: claimedAuthor},
		{name: "web-flow: GitHub signed the commit", auditors: "ann", verdict: forgedAs("exec", "ann", &ghfake.Verification{Signer: "ann", ByGitHub: true}),
			want: "failure", wantMsg: "which GitHub signed with its own key", rule: claimedAuthor},
		{name: "the executor approves its own task", auditors: "ann, exec", verdict: signedBy("exec"), want: "failure",
			wantMsg: "who also reported P0-T1", without: "not-executor"},
		{name: "someone unlisted approves", auditors: "ann", verdict: signedBy("mallory"), want: "failure",
			wantMsg: "introduced by mallory", without: "listed-auditor"},
		{name: "no auditors list", auditors: "", verdict: signedBy("exec"), want: "neutral"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerdictsEnv(t, tc.auditors, tc.verdict)
			r := runVerdicts(e, Options{})
			if r.Conclusion != tc.want {
				t.Fatalf("aep/verdicts = %s %q, want %s\n%s\n%s", r.Conclusion, r.Title, tc.want, r.Summary, e.stdout.String())
			}
			if tc.want == "failure" {
				want := tc.wantMsg
				if strings.Contains(want, "%s") {
					want = fmt.Sprintf(want, e.head[:12])
				}
				if len(r.Annotations) != 1 || r.Annotations[0].Path != "docs/run/compliance-log.md" || r.Annotations[0].StartLine != 10 ||
					!strings.Contains(r.Annotations[0].Message, want) {
					t.Errorf("annotations %+v, want one on docs/run/compliance-log.md:10 holding %q", r.Annotations, want)
				}
			}
			if n, want := e.f.Calls("POST /graphql"), map[bool]int{true: 0, false: 1}[tc.want == "neutral"]; n != want {
				t.Errorf("%d GraphQL queries, want %d (the log's commits read at once, and not without auditors)", n, want)
			}
			if tc.want == "neutral" && !strings.Contains(r.Summary, "lists no auditors") {
				t.Errorf("a neutral run does not say why:\n%s", r.Summary)
			}
			if tc.without == "" && tc.rule == nil {
				return
			}
			// A fresh pull request: a run's annotations cannot be removed, so
			// the same one would get a second run.
			e = newVerdictsEnv(t, tc.auditors, tc.verdict)
			o := Options{AuthorRule: tc.rule}
			if tc.without != "" {
				o.VerdictRules = compliance.Without(compliance.DefaultRules(), tc.without)
			}
			if r := runVerdicts(e, o); r.Conclusion != "success" {
				t.Errorf("negative control: %s %q, want the attack to pass\n%s", r.Conclusion, r.Title, r.Summary)
			}
		})
	}
}

// TestActionVerdictTeams: a member of a team in auditors counts when a
// token that reads members is given (input members-token); with only the
// workflow's GITHUB_TOKEN, which cannot, the verdict fails closed saying
// which input and permission are missing; a verdict by a login listed
// directly counts whatever the teams.
func TestActionVerdictTeams(t *testing.T) {
	tests := []struct {
		name, auditors, approver string
		members                  bool // give members-token
		want, wantMsg            string
	}{
		{"a team member, members readable", `"@acme/auditors"`, "carol", true, "success", ""},
		{"not a member, members readable", `"@acme/auditors"`, "mallory", true, "failure", "verdicts belong to the auditor alone"},
		{"a team member, GITHUB_TOKEN only", `"@acme/auditors"`, "carol", false, "failure",
			"the step's token may not read the members of @acme/auditors (a workflow's GITHUB_TOKEN never can); give the step input members-token: a personal token with read:org"},
		{"listed by login, GITHUB_TOKEN only", `ann, "@acme/auditors"`, "ann", false, "success", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerdictsEnv(t, tc.auditors, signedBy(tc.approver))
			e.f.SetTeam("acme", "auditors", "carol", "dan")
			if tc.members {
				e.vars["INPUT_MEMBERS-TOKEN"] = e.f.UserToken("octo")
			}
			r := runVerdicts(e, Options{})
			if r.Conclusion != tc.want {
				t.Fatalf("aep/verdicts = %s %q, want %s\n%s\n%s", r.Conclusion, r.Title, tc.want, r.Summary, e.stdout.String())
			}
			if tc.want == "failure" && (len(r.Annotations) != 1 || !strings.Contains(r.Annotations[0].Message, tc.wantMsg)) {
				t.Errorf("annotations %+v, want one holding %q", r.Annotations, tc.wantMsg)
			}
		})
	}
}

// runVerdicts runs the step with o's verdict and author rules.
func runVerdicts(e *stepEnv, o Options) ghfake.CheckRun {
	e.stdout.Reset()
	o.Getenv, o.Stdout, o.GitHub, o.RunControls = func(k string) string { return e.vars[k] }, &e.stdout, e.connect(), e.controls
	_, _ = Run(context.Background(), o)
	return e.runs()[checks.NameVerdicts]
}

// TestActionVerdictsNeedToken: without a token nobody can ask GitHub who
// signed a verdict commit, so the log is not judged and the step fails
// saying which input is missing; it never passes.
func TestActionVerdictsNeedToken(t *testing.T) {
	e := newVerdictsEnv(t, "ann", signedBy("ann"))
	delete(e.vars, "INPUT_TOKEN")
	code := e.run()
	if code != ExitFailed || !strings.Contains(e.stdout.String()+e.file("GITHUB_STEP_SUMMARY"), "give the step input token (contents: read)") {
		t.Errorf("exit %d, want %d saying the token is missing:\n%s\n%s", code, ExitFailed, e.stdout.String(), e.file("GITHUB_STEP_SUMMARY"))
	}
}
