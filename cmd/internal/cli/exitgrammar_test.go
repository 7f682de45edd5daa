package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// exitMode is a way a command can end that the README's exit-code table
// names; modeCodes gives each its code from that table.
type exitMode string

const (
	modeUnreadable  exitMode = "unreadable input"
	modeFindings    exitMode = "findings or not verified"
	modeUnreachable exitMode = "GitHub or the network unreachable"
	modeRefused     exitMode = "refused by an owner gate"
	modeInterrupted exitMode = "interrupted"
)

// exitModes are the modes every command's plan must run or excuse, in
// table order.
var exitModes = []exitMode{modeUnreadable, modeFindings, modeUnreachable, modeRefused, modeInterrupted}

var modeCodes = map[exitMode]int{
	modeUnreadable: exitUsage, modeFindings: exitFindings, modeUnreachable: exitUnreachable,
	modeRefused: exitRefused, modeInterrupted: exitInterrupted,
}

// exitCase is one run of a command in one mode, or (na) why the mode does
// not apply to it.
type exitCase struct {
	args []string
	// env is set for the run; GH_TOKEN, GITHUB_TOKEN and GITHUB_API_URL
	// are emptied unless env sets them.
	env map[string]string
	// cancelAfter cancels the run's context after this long (Ctrl-C);
	// cancelled cancels it before the run starts.
	cancelAfter time.Duration
	cancelled   bool
	// na says why the mode does not apply; with args, why the run ends
	// with code instead of the mode's code (an exception).
	code int
	na   string
}

// exitPlan is a command's runs, one per mode (more than one where the
// mode has several causes).
type exitPlan map[exitMode][]exitCase

// na excuses a mode.
func na(why string) []exitCase { return []exitCase{{na: why}} }

// run is one run of args.
func run(args ...string) []exitCase { return []exitCase{{args: args}} }

// local is the plan of a command that reads local files and returns at
// once: only unreadable input applies (findings when given).
func local(unreadable, findings []exitCase) exitPlan {
	if findings == nil {
		findings = na("reports no findings: it succeeds or cannot do its work (exit 2)")
	}
	return exitPlan{
		modeUnreadable: unreadable, modeFindings: findings,
		modeUnreachable: na("reads no GitHub and no network"),
		modeRefused:     na("consults no owner gate"),
		modeInterrupted: na("does not block: it returns as soon as its files are read"),
	}
}

// groupPlan is the plan of a command that only groups subcommands (it
// exits 2 when run alone, which the test checks for every group).
var groupPlan = exitPlan{
	modeUnreadable: na("a group: a subcommand reads the input"), modeFindings: na("a group"),
	modeUnreachable: na("a group"), modeRefused: na("a group"), modeInterrupted: na("a group"),
}

// exitPlanGaps lists, for every command of root's tree (hidden ones and
// cobra's help and completion left out), a mode that plans neither runs nor
// excuses: a command added without its exit behaviour covered is named here.
func exitPlanGaps(root *cobra.Command, plans map[string]exitPlan) []string {
	var gaps []string
	for _, c := range everyCommand(root) {
		p, ok := plans[c.CommandPath()]
		if !ok {
			gaps = append(gaps, c.CommandPath()+": no exit plan")
			continue
		}
		for _, m := range exitModes {
			if len(p[m]) == 0 {
				gaps = append(gaps, fmt.Sprintf("%s: %s neither run nor excused", c.CommandPath(), m))
			}
		}
	}
	return gaps
}

// everyCommand is root's tree below root, parents and leaves, without
// hidden commands (the 'demo' signpost) and cobra's help and completion.
func everyCommand(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			out = append(out, sub)
			walk(sub)
		}
	}
	walk(root)
	return out
}

// TestExitGrammar drives every command of the tree through the failure
// modes its plan lists and asserts the README's exit-code table: a bad flag
// is 2 for every command, a command with subcommands named alone is 2,
// every --help ends with the table, and each planned run ends with its
// mode's code, which the command's --help names.
func TestExitGrammar(t *testing.T) {
	plans := exitPlans(t)
	root := NewRoot("", TestApp, nil, nil, nil)
	if gaps := exitPlanGaps(root, plans); len(gaps) > 0 {
		t.Fatalf("commands whose exit behaviour no test covers:\n%s", strings.Join(gaps, "\n"))
	}
	paths := map[string]bool{}
	for _, c := range everyCommand(root) {
		path := c.CommandPath()
		paths[path] = true
		args := strings.Fields(strings.TrimPrefix(path, "aepgate "))
		t.Run(path, func(t *testing.T) {
			if _, help, _ := runCLI(t, append(args, "--help")...); !strings.HasSuffix(help, exitTable()) {
				t.Errorf("--help does not end with the exit-code table:\n%s", help)
			}
			if code, out, _ := runCLI(t, append(args, "--no-such-flag")...); code != exitUsage || out != "" {
				t.Errorf("--no-such-flag: exit %d, stdout %q; want 2 and no stdout", code, out)
			}
			if c.HasSubCommands() {
				if code, _, _ := runCLI(t, args...); code != exitUsage {
					t.Errorf("named alone, without a subcommand: exit %d, want 2", code)
				}
			}
			for _, m := range exitModes {
				for _, ec := range plans[path][m] {
					if ec.na != "" && ec.args == nil {
						continue
					}
					want := modeCodes[m]
					if ec.na != "" {
						want = ec.code // an exception, with its reason
					}
					if !helpNamesCode(c.Long, want) {
						t.Errorf("%s ends with exit %d, which the Exit codes of --help do not name:\n%s", m, want, c.Long)
					}
					code, out, errOut := exitRun(t, ec)
					if code != want {
						t.Errorf("%s: %v: exit %d, want %d\nstdout %s\nstderr %s", m, ec.args, code, want, out, errOut)
					}
				}
			}
		})
	}
	for path := range plans {
		if !paths[path] {
			t.Errorf("exit plan for %q, which is not a command", path)
		}
	}
}

// TestExitGrammarNamesANewCommand: a command added to the tree without an
// exit plan, or with a mode left out, is reported, so TestExitGrammar fails
// until its behaviour is covered.
func TestExitGrammarNamesANewCommand(t *testing.T) {
	plans := map[string]exitPlan{}
	root := &cobra.Command{Use: "aepgate"}
	toy := &cobra.Command{Use: "toy", RunE: func(*cobra.Command, []string) error { return nil }}
	root.AddCommand(toy)
	if got, want := exitPlanGaps(root, plans), []string{"aepgate toy: no exit plan"}; !slices.Equal(got, want) {
		t.Errorf("no plan: gaps %q, want %q", got, want)
	}
	plans["aepgate toy"] = exitPlan{modeUnreadable: run("toy", "missing")}
	got := exitPlanGaps(root, plans)
	if len(got) != len(exitModes)-1 || !strings.Contains(got[0], "aepgate toy: findings or not verified neither run nor excused") {
		t.Errorf("one mode planned: gaps %q, want the other %d modes", got, len(exitModes)-1)
	}
	// The real tree with the toy added is short of exactly the toy.
	real := NewRoot("", TestApp, nil, nil, nil)
	real.AddCommand(&cobra.Command{Use: "toy", RunE: func(*cobra.Command, []string) error { return nil }})
	if got, want := exitPlanGaps(real, exitPlans(t)), []string{"aepgate toy: no exit plan"}; !slices.Equal(got, want) {
		t.Errorf("real tree plus toy: gaps %q, want %q", got, want)
	}
}

// exitRun runs ec in-process, with its environment and its interrupt.
func exitRun(t *testing.T, ec exitCase) (int, string, string) {
	t.Helper()
	for _, k := range []string{"GH_TOKEN", "GITHUB_TOKEN", "GITHUB_API_URL"} {
		t.Setenv(k, "")
	}
	for k, v := range ec.env {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if ec.cancelled {
		cancel()
	}
	if ec.cancelAfter > 0 {
		time.AfterFunc(ec.cancelAfter, cancel)
	}
	var out, errb bytes.Buffer
	code := runFull(ctx, ec.args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// closedURL is a GitHub API root on a local port nothing listens on.
const closedURL = "http://127.0.0.1:1/"

// exitPlans is every command's plan. A new command must get one here.
func exitPlans(t *testing.T) map[string]exitPlan {
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "missing")
	notAudit := filepath.Join(tmp, "review.md")
	writeFile(t, tmp, "review.md", "not an audit\n")
	writeFile(t, tmp, "token", "a-token\n")
	os.Chmod(filepath.Join(tmp, "token"), 0o600)
	token := filepath.Join(tmp, "token")
	writeFile(t, tmp, "garbage.json", "{not json\n")
	garbage := filepath.Join(tmp, "garbage.json")
	keys := exitKeys(t)
	extendsCfg := "testdata/config/extends.yml"
	sleepy := exitVerifyRun(t, "sleep 30")
	actionEnv := exitActionEnv(t)
	tokenEnv := map[string]string{"GH_TOKEN": "a-token"}
	return map[string]exitPlan{
		"aepgate action": {
			modeUnreadable:  {{args: []string{"action"}, env: with(with(actionEnv, "GITHUB_EVENT_NAME", "pull_request"), "GITHUB_EVENT_PATH", missing)}},
			modeFindings:    {{args: []string{"action"}, env: with(actionEnv, "INPUT_DIR", "docs/none")}},
			modeUnreachable: {{args: []string{"action"}, env: with(with(actionEnv, "INPUT_TOKEN", "a-token"), "GITHUB_API_URL", closedURL)}},
			modeRefused:     na("consults no owner gate (the App's aepgate/gates does)"),
			modeInterrupted: {{args: []string{"action"}, env: with(with(actionEnv, "INPUT_TOKEN", "a-token"), "GITHUB_API_URL", closedURL), cancelled: true}},
		},
		"aepgate app":          groupPlan,
		"aepgate app manifest": local(na("reads no file: the manifest comes from its flags"), nil),
		"aepgate app register": {
			modeUnreadable:  run("app", "register", "--url", "https://aepgate.example.com", "--dir", notAudit),
			modeFindings:    na("GitHub refusing the code needs the browser's redirect: TestAppRegisterRefusesACodeWithoutItsState"),
			modeUnreachable: na("the code exchange needs the browser's redirect: networkCode in runRegister"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"app", "register", "--url", "https://aepgate.example.com", "--dir", t.TempDir()}, cancelAfter: 300 * time.Millisecond}},
		},
		"aepgate board":       local(run("board", missing), nil),
		"aepgate certificate": groupPlan,
		"aepgate certificate fetch": {
			modeUnreadable:  run("certificate", "fetch", "--repo", "acme/widgets", "--sha", validMergeSHA, "--app-id", "1", "--token-file", missing),
			modeFindings:    {{args: newCertWorld(t).args("--app-id", "777")}},
			modeUnreachable: run("certificate", "fetch", "--repo", "acme/widgets", "--sha", validMergeSHA, "--app-id", "1", "--token-file", token, "--github-url", closedURL),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: newCertWorld(t).args("--app-id", "777"), cancelled: true}},
		},
		"aepgate certificate scan":     local(run("certificate", "scan", missing), run("certificate", "scan", "testdata/evidence/certificates-bad")),
		"aepgate certificate validate": local(run("certificate", "validate", missing), run("certificate", "validate", "testdata/evidence/certificate-mismatch.json")),
		"aepgate certificate verify": local(
			[]exitCase{{args: []string{"certificate", "verify", missing, "--jwks", keys}}, {args: []string{"certificate", "verify", garbage, "--jwks", missing}}},
			run("certificate", "verify", garbage, "--jwks", keys)),
		"aepgate config": groupPlan,
		"aepgate config validate": {
			modeUnreadable: run("config", "validate", missing),
			modeFindings:   run("config", "validate", "testdata/config/extends-drop.yml", "--base", "testdata/config/org-base.yml"),
			modeUnreachable: {
				{args: []string{"config", "validate", "--resolved", "--repo", "acme/widgets", "--github-url", closedURL}, env: tokenEnv},
				{args: []string{"config", "validate", extendsCfg, "--resolved", "--repo", "acme/widgets", "--github-url", closedURL}, env: tokenEnv},
			},
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"config", "validate", "--resolved", "--repo", "acme/widgets"}, env: tokenEnv, cancelled: true}},
		},
		"aepgate gate": groupPlan,
		"aepgate gate eval": {
			modeUnreadable:  run("gate", "eval", missing, "--action", "merge"),
			modeFindings:    na("a gate's refusal is 4, refused by an owner gate"),
			modeUnreachable: na("replays an events file: no network"),
			modeRefused:     run("gate", "eval", "testdata/evidence/gates-hold.json", "--action", "merge"),
			modeInterrupted: na("does not block: it returns as soon as the file is read"),
		},
		"aepgate healthcheck": {
			modeUnreadable:  na("reads no file"),
			modeFindings:    run("healthcheck", "--url", "http://127.0.0.1:1/readyz"),
			modeUnreachable: {{args: []string{"healthcheck", "--url", "http://127.0.0.1:1/readyz"}, code: exitFindings, na: "the service not answering is unhealthy, 1: Docker's HEALTHCHECK reads 1 as unhealthy and reserves the rest"}},
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: na("one request of at most --timeout"),
		},
		"aepgate init":          local(run("init", filepath.Join(notAudit, "run")), nil),
		"aepgate install-skill": local(run("install-skill", "--dest", filepath.Join(notAudit, "skill")+"/"), nil),
		"aepgate keys":          local(run("keys", "--signing-key-file", missing), nil),
		"aepgate keys generate": local(run("keys", "generate", "--out", notAudit), nil),
		"aepgate keys revocations": local([]exitCase{
			{args: []string{"keys", "revocations", "--signing-key-file", missing}},
			{args: []string{"keys", "revocations", "--signing-key-file", missing, "--revocations-file", missing}},
		}, nil),
		"aepgate ledger": groupPlan,
		"aepgate ledger verify": {
			modeUnreadable:  run("ledger", "verify", "--database", "sqlite:"+missing),
			modeFindings:    run("ledger", "verify", "--database", exitLedger(t), "--jwks", keys),
			modeUnreachable: run("ledger", "verify", "--database", "postgres://aepgate@127.0.0.1:1/aepgate?connect_timeout=1"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: na("reads one database and returns"),
		},
		"aepgate ledger export": {
			modeUnreadable:  run("ledger", "export", "--database", "sqlite:"+missing),
			modeFindings:    na("writes the rows: no findings (ledger verify judges them)"),
			modeUnreachable: run("ledger", "export", "--database", "postgres://aepgate@127.0.0.1:1/aepgate?connect_timeout=1"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: na("reads one database and returns"),
		},
		"aepgate lint": local(run("lint", missing), run("lint", "testdata/rundocs/problems")),
		"aepgate negcontrol": {
			modeUnreadable:  run("negcontrol", "--all", "--root", missing),
			modeFindings:    run("negcontrol", "--test-cmd", "true", "--restore-cmd", "true"),
			modeUnreachable: na("runs local commands only"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"negcontrol", "--test-cmd", "sleep 30", "--restore-cmd", "true"}, cancelAfter: 300 * time.Millisecond}},
		},
		"aepgate mcp": {
			modeUnreadable:  run("mcp", "--github-url", "not a url"),
			modeFindings:    na("serves tools: findings are in the tools' results, never the exit code"),
			modeUnreachable: na("reaches GitHub only inside a what_blocks call, which answers a tool error"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"mcp"}, cancelled: true}},
		},
		"aepgate plans": groupPlan,
		"aepgate plans verify": {
			modeUnreadable:  run("plans", "verify", missing),
			modeFindings:    run("plans", "verify", exitPlansFinding(t)),
			modeUnreachable: na("reads the local git history only"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"plans", "verify", exitPlansSleepy(t), "--rerun"}, cancelAfter: 300 * time.Millisecond}},
		},
		"aepgate release": groupPlan,
		"aepgate release verify": {
			modeUnreadable:  run("release", "verify", "--repo", "octo/demo", "--tag", "v1.2.3", "--manifest", "../m"),
			modeFindings:    run("release", "verify", "--repo", "octo/demo", "--tag", "v1.2.3"),
			modeUnreachable: run("release", "verify", "--repo", "octo/demo", "--tag", "v1.2.3", "--token-file", token, "--github-url", closedURL),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"release", "verify", "--repo", "octo/demo", "--tag", "v1.2.3", "--token-file", token}, cancelled: true}},
		},
		"aepgate review":       groupPlan,
		"aepgate review check": local(run("review", "check", missing), run("review", "check", notAudit)),
		"aepgate serve": {
			modeUnreadable:  run("serve", "--app-id", "1", "--private-key-file", missing),
			modeFindings:    na("a server: it reports no findings"),
			modeUnreachable: {{args: append(serveFiles(t, t.TempDir(), 0o600, 0o600), "--database", "postgres://aepgate@127.0.0.1:1/aepgate?connect_timeout=1", "--database-wait", "1ms", "--addr", "127.0.0.1:0")}},
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: append(serveFiles(t, t.TempDir(), 0o600, 0o600), "--database", "sqlite:"+filepath.Join(t.TempDir(), "a.db"), "--addr", "127.0.0.1:0"), cancelAfter: time.Second, code: exitOK, na: "SIGINT and SIGTERM are serve's normal stop: 0 after a clean shutdown"}},
		},
		"aepgate simulate": {
			modeUnreadable:  {{args: []string{"simulate", "--repo", "acme/widgets", "--pr", "1", "--config", missing}, env: tokenEnv}},
			modeFindings:    na("prints the judgement whatever it concludes (exit 0)"),
			modeUnreachable: {{args: []string{"simulate", "--repo", "acme/widgets", "--pr", "1", "--github-url", closedURL}, env: tokenEnv}},
			modeRefused:     na("reports the gates' verdict without enforcing it (exit 0)"),
			modeInterrupted: {{args: []string{"simulate", "--repo", "acme/widgets", "--pr", "1"}, env: tokenEnv, cancelled: true}},
		},
		"aepgate status": local(run("status", missing), nil),
		"aepgate verify": {
			modeUnreadable:  run("verify", missing),
			modeFindings:    run("verify", exitVerifyRun(t, "echo FAIL; exit 1"), "--rerun"),
			modeUnreachable: na("re-runs local commands only"),
			modeRefused:     na("consults no owner gate"),
			modeInterrupted: {{args: []string{"verify", sleepy, "--rerun"}, cancelAfter: 300 * time.Millisecond}},
		},
		"aepgate version": local(na("reads no input"), nil),
	}
}

// with is env with k set to v (a copy).
func with(env map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for a, b := range env {
		if a != k {
			out[a] = b
		}
	}
	return out
}

// exitKeys is a JWKS file of a key no certificate or ledger here is signed
// with.
func exitKeys(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	key := filepath.Join(dir, "key.pem")
	if code, _, errOut := runCLI(t, "keys", "generate", "--out", key); code != 0 {
		t.Fatalf("keys generate: %d %s", code, errOut)
	}
	code, jwks, errOut := runCLI(t, "keys", "--signing-key-file", key)
	if code != 0 {
		t.Fatalf("keys: %d %s", code, errOut)
	}
	write(t, dir, "keys.jwks", []byte(jwks))
	return filepath.Join(dir, "keys.jwks")
}

// exitLedger is a ledger whose signed head is another key's.
func exitLedger(t *testing.T) string {
	t.Helper()
	url, _, _ := sealedLedger(t, 2)
	return url
}

// exitVerifyRun is a run folder in a git repository with one DONE task
// whose Verify command is command and whose pasted output is a pass.
func exitVerifyRun(t *testing.T, command string) string {
	t.Helper()
	r := &plansRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.commit("run", verifyRun([]string{command}, []string{"ok  src 0.1s"}))
	return filepath.Join(r.dir, "docs/run")
}

// exitPlansFinding is a plans folder whose state records an unknown key.
func exitPlansFinding(t *testing.T) string {
	t.Helper()
	r := newPlansRepo(t)
	r.commit("state", map[string]string{"plans/billing/state/phase-1.json": "{\n\"version\": 1,\n\"trust_me\": true}\n"})
	return filepath.Join(r.dir, "plans/billing")
}

// exitPlansSleepy is a plans folder whose recorded command sleeps.
func exitPlansSleepy(t *testing.T) string {
	t.Helper()
	r := newPlansRepo(t)
	c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
	c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
	r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c2, "sleep 30", "0")})
	return filepath.Join(r.dir, "plans/billing")
}

// exitActionEnv is the environment of a push workflow whose workspace is a
// checkout of GITHUB_SHA with one run folder, every other Action variable
// empty.
func exitActionEnv(t *testing.T) map[string]string {
	t.Helper()
	ws := t.TempDir()
	if c, _, e := runCLI(t, "init", filepath.Join(ws, "docs/run")); c != 0 {
		t.Fatalf("init: %d %s", c, e)
	}
	env := map[string]string{}
	for _, k := range []string{"GITHUB_REPOSITORY", "GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH", "GITHUB_SHA",
		"GITHUB_WORKSPACE", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_RUN_ID", "GITHUB_API_URL",
		"INPUT_DIR", "INPUT_CHECKS", "INPUT_CONFIG", "INPUT_TOKEN", "INPUT_FAIL-ON", "INPUT_TAG", "INPUT_ASSETS", "INPUT_MANIFEST"} {
		env[k] = ""
	}
	for k, v := range map[string]string{
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "push", "GITHUB_SHA": gitCheckout(t, ws),
		"GITHUB_WORKSPACE": ws, "GITHUB_OUTPUT": filepath.Join(t.TempDir(), "out"), "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "sum"),
		"INPUT_DIR": "docs/*",
	} {
		env[k] = v
	}
	return env
}

// helpNamesCode reports whether the "Exit codes:" paragraph of long names
// code ("0 ...", "; 3 ...", ", 130 ...").
func helpNamesCode(long string, code int) bool {
	_, para, ok := strings.Cut(long, "Exit codes:")
	if !ok {
		return false
	}
	para, _, _ = strings.Cut(para, "\n\n")
	return regexp.MustCompile(fmt.Sprintf(`(^|[\s;,:(])%d\b`, code)).MatchString(strings.ReplaceAll(para, "\n", " "))
}
