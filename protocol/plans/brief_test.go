package plans

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseBrief reads the fixture's phase-2 brief: its heading, Files and
// verify_command written three ways (plain, bold with "—", upper case with
// "—" and indented bullets), and its pre-conditions.
func TestParseBrief(t *testing.T) {
	data, err := os.ReadFile("testdata/skill/phases/phase-2-redis-backend.md")
	if err != nil {
		t.Fatal(err)
	}
	file := skillDir + "/phases/phase-2-redis-backend.md"
	got, err := ParseBrief(file, 2, data)
	if err != nil {
		t.Fatal(err)
	}
	want := &Brief{File: file, Phase: 2,
		PreConditions: []string{"test -f src/limiter/types.ts", "npm test -- src/limiter"},
		PreTasks:      []Ref{{ID: "1.2", Line: 13}},
		Tasks: []BriefTask{
			{ID: "2.1", Title: "Redis client wrapper", Line: 26, Files: []string{"src/redis/client.ts", "src/redis/client.test.ts"},
				FilesLine: 32, VerifyCommand: "npm test -- src/redis/client.test.ts", VerifyLine: 36},
			{ID: "2.2", Title: "Pipelined MULTI for atomic refill", Line: 38, Files: []string{"src/redis/refill.ts", "src/redis/refill.test.ts"},
				FilesLine: 40, VerifyCommand: "npm test -- src/redis/refill.test.ts", VerifyLine: 44, Requires: []Ref{{ID: "2.1", Line: 46}}},
			{ID: "2.3", Title: "Backend selection by config", Line: 48, Files: []string{"src/config.ts", "src/redis/index.ts"},
				FilesLine: 50, VerifyCommand: "npm test -- src/config.test.ts", VerifyLine: 54, Requires: []Ref{{ID: "2.2", Line: 57}}},
		}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseBrief (-want +got):\n%s", diff)
	}
}

func TestParseBriefErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"a task twice", "### Task 1.1: a\n\n### Task 1.1: b\n", `f.md:3: Task 1.1: task "1.1" has two sections in this brief`},
		{"too big", string(make([]byte, MaxFileSize+1)), "f.md:1: file is 1048577 bytes, over the 1048576-byte limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBrief("f.md", 1, []byte(tc.data))
			if err == nil || err.Error() != tc.want {
				t.Errorf("err = %v, want %s", err, tc.want)
			}
		})
	}
}

// TestParseBriefFence: a "### Task" line inside a fenced block is code,
// not a task, and a fence under another heading holds no pre-condition.
func TestParseBriefFence(t *testing.T) {
	data := "## Notes\n\n```\n### Task 9.9: not a task\nrm -rf /\n```\n\n### Task 1.1: real\nFiles: `a.go`\n"
	got, err := ParseBrief("f.md", 1, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := &Brief{File: "f.md", Phase: 1, Tasks: []BriefTask{{ID: "1.1", Title: "real", Line: 8, Files: []string{"a.go"}, FilesLine: 9}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseBrief (-want +got):\n%s", diff)
	}
}

// TestParseProgressSkill: the skill's progress.json (no version, no owner,
// a commands block, keys aepgate does not read) is read as the skill's
// dialect, never refused as aepgate's version 0.
func TestParseProgressSkill(t *testing.T) {
	data, err := os.ReadFile("testdata/skill/progress.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProgress(skillDir+"/progress.json", data)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{p.Dialect, p.Slug, p.Owner, p.Commands.Named("test"), p.Commands.Named("lint"), p.Commands.Named("build"),
		p.Phases[1].Name, p.Phases[1].ConflictZones[0], p.Phases[1].Tasks[0].VerifyCommand}
	want := []string{DialectSkill, "add-rate-limiting", "", "npm test", "npm run lint", "npm run build",
		"redis-backend", "src/config.ts", "npm test -- src/redis/client.test.ts"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skill progress (-want +got):\n%s", diff)
	}
	if line := p.Line("phases[1].conflict_zones[0]"); line != 11 {
		t.Errorf("conflict zone line = %d, want 11", line)
	}
	bad := []struct{ data, want string }{
		{`{"phases": []}`, "p/progress.json:1: phases: required: at least one phase"},
		{`{"phases": [{"id": 2}]}`, "p/progress.json:1: phases[0].id: phases are numbered 1, 2, … in order: want 1, got 2"},
		{`{"commands": {"test": 1}, "phases": [{"id": 1}]}`, "p/progress.json:1: commands.test: want string, got JSON number"},
	}
	for _, b := range bad {
		if _, err := ParseProgress("p/progress.json", []byte(b.data)); err == nil || err.Error() != b.want {
			t.Errorf("ParseProgress(%s) = %v, want %s", b.data, err, b.want)
		}
	}
}
