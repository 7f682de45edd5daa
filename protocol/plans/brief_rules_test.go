package plans

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// skillDir is where the skill-dialect fixture folder sits in the
// repository: the spec's example state file (executor-state) verbatim,
// with a progress.json and phase briefs written as docs/plans.md reads
// them.
const skillDir = "plans/add-rate-limiting"

const (
	skillC1     = "a1b2c3d000000000000000000000000000000000" // the spec's "a1b2c3d"
	skillC2     = "a1b2c3e000000000000000000000000000000000"
	skillStateC = "a5a5a5a000000000000000000000000000000000"
)

// loadSkill reads the fixture's files rels into a plan owned by olivia.
func loadSkill(t *testing.T, rels ...string) Plan {
	t.Helper()
	p := Plan{Dir: skillDir, States: map[int]*State{}, Reviews: map[int]*Review{}}
	for _, rel := range rels {
		b, err := os.ReadFile(filepath.Join("testdata/skill", rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(skillDir+"/"+rel, b); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	p.SetOwner("olivia")
	return p
}

var skillBase = []string{"progress.json", "phases/phase-1-limiter-core.md", "phases/phase-2-redis-backend.md",
	"state/phase-1.json", "state/phase-1.review.json"}

// briefHonest is phase 2's pull request as the spec's state file tells it:
// task 2.1 done at a1b2c3d (changing the files its brief lists), 2.2
// failed and blocking 2.3, phase 1 approved at base.
func briefHonest(t *testing.T) Input {
	state := skillDir + "/state/phase-2.json"
	return Input{Base: loadSkill(t, skillBase...), Head: loadSkill(t, append(skillBase, "state/phase-2.json")...),
		PR: PR{Author: "executor-a", Phase: 2, Base: shaBase,
			Commits: []Commit{
				{skillC1, []string{"src/redis/client.test.ts", "src/redis/client.ts"}},
				{skillStateC, []string{state}},
			},
			Changed: []string{state, "src/redis/client.test.ts", "src/redis/client.ts"}}}
}

// setSkillState replaces head's phase-2 state file with data.
func setSkillState(t *testing.T, in *Input, data string) {
	t.Helper()
	s, err := ParseState(skillDir+"/state/phase-2.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	in.Head.States = map[int]*State{1: in.Head.States[1], 2: s}
}

// twoDone is a phase-2 state with 2.1 and 2.2 done at the given commits.
func twoDone(c21, c22 string) string {
	return `{"phase": 2, "status": "in_progress", "claimed_by": "executor-a",
  "tasks": {
    "2.1": {"status": "done", "commit": "` + c21[:7] + `"},
    "2.2": {"status": "done", "commit": "` + c22[:7] + `"}
  }}`
}

var briefLies = []struct {
	name string
	rule string
	lie  func(*testing.T, *Input)
	want string // a fragment of the finding's message
}{
	{"a task changes a file its brief does not list", "task-files", func(t *testing.T, in *Input) {
		in.PR.Commits[0].Files = append(in.PR.Commits[0].Files, "src/server.ts")
		in.PR.Changed = append(in.PR.Changed, "src/server.ts")
	}, `task "2.1"'s commit a1b2c3d changes src/server.ts, which plans/add-rate-limiting/phases/phase-2-redis-backend.md:32 does not list`},
	{"a commit no task names changes a file no task lists", "task-files", func(t *testing.T, in *Input) {
		in.PR.Commits[1].Files = append(in.PR.Commits[1].Files, "src/server.ts")
		in.PR.Changed = append(in.PR.Changed, "src/server.ts")
	}, "commit a5a5a5a00000 changes src/server.ts, which no task of this brief lists"},
	{"a folder the brief lists does not cover a file beside it", "task-files", func(t *testing.T, in *Input) {
		b := *in.Base.Briefs[2]
		b.Tasks = append([]BriefTask(nil), b.Tasks...)
		b.Tasks[0].Files = []string{"src/redis/"}
		in.Base.Briefs = map[int]*Brief{1: in.Base.Briefs[1], 2: &b}
		in.PR.Commits[0].Files = append(in.PR.Commits[0].Files, "src/redis-extra/x.ts")
		in.PR.Changed = append(in.PR.Changed, "src/redis-extra/x.ts")
	}, `changes src/redis-extra/x.ts, which`},
	{"a task the brief has no section for", "task-files", func(t *testing.T, in *Input) {
		b := *in.Base.Briefs[2]
		b.Tasks = b.Tasks[1:]
		in.Base.Briefs = map[int]*Brief{1: in.Base.Briefs[1], 2: &b}
	}, `task "2.1" is done but plans/add-rate-limiting/phases/phase-2-redis-backend.md has no "### Task 2.1" section`},
	{"a phase without a brief", "task-files", func(t *testing.T, in *Input) {
		in.Base.Briefs, in.Head.Briefs = nil, nil
	}, `task "2.1" is done but phase 2 has no brief`},
	{"a file in another phase's conflict zone", "conflict-zones", func(t *testing.T, in *Input) {
		b := *in.Base.Briefs[2]
		b.Tasks = append([]BriefTask(nil), b.Tasks...)
		b.Tasks[0].Files = append(b.Tasks[0].Files, "src/limiter/types.ts")
		in.Base.Briefs = map[int]*Brief{1: in.Base.Briefs[1], 2: &b}
		in.PR.Commits[0].Files = append(in.PR.Commits[0].Files, "src/limiter/types.ts")
		in.PR.Changed = append(in.PR.Changed, "src/limiter/types.ts")
	}, `src/limiter/types.ts is in phase 1's conflict zone "src/limiter/types.ts"`},
	{"a task done before its pre-condition task", "task-preconditions", func(t *testing.T, in *Input) {
		in.PR.Commits = []Commit{{skillC2, []string{"src/redis/refill.ts"}}, {skillC1, []string{"src/redis/client.ts"}},
			{skillStateC, []string{skillDir + "/state/phase-2.json"}}}
		setSkillState(t, in, twoDone(skillC1, skillC2))
	}, `task "2.2" is done at commit a1b2c3e, but task "2.1", a pre-condition of it (plans/add-rate-limiting/phases/phase-2-redis-backend.md:46), was done after it, at commit a1b2c3d`},
	{"the phase's pre-condition task not done", "task-preconditions", func(t *testing.T, in *Input) {
		in.Base.Reviews = nil
		in.Base.States = map[int]*State{}
		in.Head.States = map[int]*State{2: in.Head.States[2]}
		in.Base.Progress, in.Head.Progress = withoutDeps(t), withoutDeps(t)
	}, `task "2.1" is done at commit a1b2c3d, but task "1.2", a pre-condition of it (plans/add-rate-limiting/phases/phase-2-redis-backend.md:13), is not done`},
	{"a recorded command that is not the plan's", "verify-commands", func(t *testing.T, in *Input) {
		data, _ := os.ReadFile("testdata/skill/state/phase-2.json")
		setSkillState(t, in, strings.Replace(string(data), `"npm test"`, `"npm test -- --passWithNoTests"`, 1))
	}, `verification.test ran "npm test -- --passWithNoTests", but progress.json's commands.test is "npm test"`},
	{"a task's verify_command differs from the brief's", "verify-commands", func(t *testing.T, in *Input) {
		in.Head.Progress.Phases[1].Tasks[0].VerifyCommand = "true"
	}, `task "2.1"'s verify_command is "npm test -- src/redis/client.test.ts" here but "true" in progress.json`},
	{"a brief edited in the pull request", "contract", func(t *testing.T, in *Input) {
		in.PR.Changed = append(in.PR.Changed, skillDir+"/phases/phase-2-redis-backend.md")
	}, "the phase brief plans/add-rate-limiting/phases/phase-2-redis-backend.md is part of the plan's contract"},
}

// withoutDeps is the fixture's progress.json with phase 2 depending on
// nothing, so that only the brief's pre-condition holds phase 1.
func withoutDeps(t *testing.T) *Progress {
	data, err := os.ReadFile("testdata/skill/progress.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProgress(skillDir+"/progress.json", []byte(strings.Replace(string(data), `"depends_on": [1]`, `"depends_on": []`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	p.Owner = "olivia"
	return p
}

func TestBriefFolderHonest(t *testing.T) {
	in := briefHonest(t)
	if got := Check(in, Rules()); len(got) != 0 {
		t.Errorf("Check(the skill's example) = %+v, want no finding", got)
	}
	got := []string{in.Head.Progress.Dialect, in.Head.States[2].Dialect, in.Head.Derived(1), in.Head.Derived(2)}
	if diff := cmp.Diff([]string{DialectSkill, DialectSkill, StatusDone, StatusInProgress}, got); diff != "" {
		t.Errorf("dialects and statuses (-want +got):\n%s", diff)
	}
}

func TestBriefFolderLies(t *testing.T) {
	for _, tc := range briefLies {
		t.Run(tc.name, func(t *testing.T) {
			in := briefHonest(t)
			tc.lie(t, &in)
			got := Check(in, Rules())
			if rules(got) != tc.rule || !strings.Contains(got[0].Message, tc.want) {
				t.Errorf("findings = %+v\nwant one %s finding containing %q", got, tc.rule, tc.want)
			}
		})
	}
}

// TestBriefFolderNegativeControls shows each lie passing once its rule is
// left out: the rule, not something else, is what catches it.
func TestBriefFolderNegativeControls(t *testing.T) {
	for _, tc := range briefLies {
		t.Run(tc.name, func(t *testing.T) {
			in := briefHonest(t)
			tc.lie(t, &in)
			if got := Check(in, Without(Rules(), tc.rule)); len(got) != 0 {
				t.Errorf("without %s: %+v, want the lie to pass", tc.rule, got)
			}
		})
	}
}

// TestOtherCommitsMergedBase: a commit no task names that brings in files
// the change as a whole does not change (a merge of the base branch) is
// no finding; the same files in the change's net diff are.
func TestOtherCommitsMergedBase(t *testing.T) {
	in := briefHonest(t)
	in.PR.Commits = append(in.PR.Commits, Commit{"e0e0e0e000000000000000000000000000000000", []string{"docs/from-main.md"}})
	if got := Check(in, Rules()); len(got) != 0 {
		t.Errorf("merge of the base: %+v, want none", got)
	}
	in.PR.Changed = append(in.PR.Changed, "docs/from-main.md")
	if got := rules(Check(in, Rules())); got != "task-files" {
		t.Errorf("rules = %q, want task-files", got)
	}
}

// TestSkillReviewWithoutOwner: in a plan whose progress.json names no
// owner and none was given, a review file is nobody's to write (fail
// closed) and the finding says how to name the owner; named, the owner
// may write it.
func TestSkillReviewWithoutOwner(t *testing.T) {
	in := briefHonest(t)
	in.Head.Progress.Owner = ""
	in.PR.Author = "olivia"
	in.PR.Changed = append(in.PR.Changed, skillDir+"/state/phase-2.review.json")
	got := Check(in, []Rule{{"state-scope", checkScope}})
	if len(got) != 1 || !strings.Contains(got[0].Message, "names no owner; name the plan's owner (plans verify --owner)") {
		t.Errorf("findings = %+v", got)
	}
	in.Head.SetOwner("olivia")
	if got := Check(in, Rules()); len(got) != 0 {
		t.Errorf("owner named: %+v, want none", got)
	}
}
