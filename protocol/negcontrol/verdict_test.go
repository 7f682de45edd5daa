package negcontrol

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWrongReasonVerdictIsAepkits checks that a test failing for another
// reason than --expect names ends with aepkit's verdict line, byte for byte.
func TestWrongReasonVerdictIsAepkits(t *testing.T) {
	dir := fixture(t)
	res := Run(context.Background(), Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt", Break: breakCmd,
		Test: testCmd, Expect: "guard is (down|gone)"})
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	lines := strings.Split(strings.TrimRight(res.Transcript, "\n"), "\n")
	got := lines[len(lines)-1]
	want := "FAIL: the test failed, but its output does not match --expect /guard is (down|gone)/. " +
		"It may have failed for an unrelated reason (a syntax error, a missing import, a wrong command); read the output above."
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdict line (-want +got):\n%s", diff)
	}
	if code := res.ExitCode(); code != 1 {
		t.Errorf("exit = %d, want 1", code)
	}
}
