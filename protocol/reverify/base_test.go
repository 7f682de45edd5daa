package reverify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// TestFromBase: a task runs the base guide's Verify command; one whose
// command the pull request changed, or that the base lacks, is reported
// and never run from the head's text.
func TestFromBase(t *testing.T) {
	task := Task{ID: "P0-T1", Command: "./check.sh store", LogLine: 3, Pasted: "ok  store 0.2s"}
	lying := task
	lying.Command = "printf 'ok  store 0.2s\\n'"
	changed := "P0-T1: the Verify command changed on this pull request; not re-run from the head's text"
	for _, tt := range []struct {
		name        string
		task        Task
		base        *rundoc.Guide
		wantRun     []string
		wantChanged []string
	}{
		{"unchanged", task, rundoc.ParseGuide(rundoc.GuideFile, guide), []string{"./check.sh store"}, nil},
		{"changed on the pull request", lying, rundoc.ParseGuide(rundoc.GuideFile, guide), nil, []string{changed}},
		{"not in the base's guide", task, rundoc.ParseGuide(rundoc.GuideFile, "# Execution guide\n"), nil,
			[]string{"P0-T1: the task is not in the base commit's execution guide, so its Verify command is new on this pull request; not re-run from the head's text"}},
		{"no guide at the base", task, nil, nil, []string{"P0-T1: the task is not in the base commit's execution guide"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, ch := FromBase([]Task{tt.task}, tt.base)
			var gotRun, gotChanged []string
			for _, r := range run {
				gotRun = append(gotRun, r.Command)
			}
			for i, c := range ch {
				if i < len(tt.wantChanged) && !strings.HasPrefix(c.Message, tt.wantChanged[i]) {
					t.Errorf("changed[%d] = %q, want it to start %q", i, c.Message, tt.wantChanged[i])
				}
				gotChanged = append(gotChanged, c.ID)
			}
			if diff := cmp.Diff(tt.wantRun, gotRun); diff != "" {
				t.Errorf("run (-want +got):\n%s", diff)
			}
			if len(gotChanged) != len(tt.wantChanged) {
				t.Errorf("changed = %v, want %d", gotChanged, len(tt.wantChanged))
			}
		})
	}
}
