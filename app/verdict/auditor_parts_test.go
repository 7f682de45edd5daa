package verdict

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

const partsGuide = "### P0-T1 — Check\n\n**Goal:** g.\n\n**Verify:**\n```bash\ngo test ./x\n```\n"

// TestAuditorParts: which changed files are the auditor's part of a run
// folder, and what the gate's question says of each.
func TestAuditorParts(t *testing.T) {
	cfg, err := config.Parse(config.DefaultPath, []byte("version: 1\nowners: [olivia]\nrun_documents: [docs/run, \"docs/runs/*\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	lie := "### P0-T1 — Check\n\n**Goal:** g.\n\n**Verify:**\n```bash\nprintf ok\n```\n"
	files := []string{"docs/run/plan-of-record.md", "docs/runs/a/annexes/P1-fix.md", "docs/run/execution-guide.md",
		"docs/runs/b/execution-guide.md", "docs/runs/c/execution-guide.md", "docs/run/compliance-log.md", "docs/other/plan-of-record.md", "docs/runs/d/execution-guide.md"}
	var fs []snapshot.File
	for _, f := range files {
		fs = append(fs, snapshot.File{Path: f, ChangeType: "MODIFIED"})
	}
	ev := &Evaluation{Cfg: cfg, Snap: &snapshot.PR{Pull: &snapshot.Pull{Files: fs}, Has: snapshot.Needs{Files: true}},
		Guides: map[string]GuideTexts{
			"docs/run/execution-guide.md":    {Base: partsGuide, Head: lie},
			"docs/runs/b/execution-guide.md": {Base: partsGuide, Head: partsGuide + "  \n"},
			"docs/runs/c/execution-guide.md": {Err: "GitHub named no base commit"},
		}}
	const p = "changes the auditor's part of run documents: "
	want := map[string]string{
		"docs/run/plan-of-record.md":     p + "the plan of record",
		"docs/runs/a/annexes/P1-fix.md":  p + "an annex",
		"docs/run/execution-guide.md":    p + "P0-T1's Verify command",
		"docs/runs/c/execution-guide.md": p + "the execution guide (GitHub named no base commit, so judged changed)",
		"docs/runs/d/execution-guide.md": p + "the execution guide (not read, so judged changed)",
	}
	if diff := cmp.Diff(want, ev.auditorParts()); diff != "" {
		t.Errorf("auditorParts (-want +got):\n%s", diff)
	}
	wantRead := []string{"docs/run/execution-guide.md", "docs/runs/b/execution-guide.md", "docs/runs/c/execution-guide.md", "docs/runs/d/execution-guide.md"}
	if diff := cmp.Diff(wantRead, ev.GuidesWanted()); diff != "" {
		t.Errorf("GuidesWanted (-want +got):\n%s", diff)
	}
}

// TestAuditorPartDeciders: owners and auditors may approve a change to
// the auditor's part, the pull request's author never, whatever the role.
// The negative control passes no author: the executor is then among them.
func TestAuditorPartDeciders(t *testing.T) {
	for _, tt := range []struct {
		name, author string
		want         []string
	}{
		{"the author left out", "Bob", []string{"olivia", "carol"}},
		{"negative control: no author left out", "", []string{"olivia", "bob", "carol"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := AuditorPartDeciders([]string{"olivia", "bob"}, []string{"carol", "bob"}, tt.author)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("deciders (-want +got):\n%s", diff)
			}
		})
	}
}
