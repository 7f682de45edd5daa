package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestStatusGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"status-problems.golden", []string{"status", problemsDir}},
		{"status-example.golden", []string{"status", exampleDir}},
		{"status-example.json.golden", []string{"status", exampleDir, "--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != 0 || errOut != "" {
				t.Errorf("exit %d, stderr %q; want 0 and no stderr", code, errOut)
			}
			golden.CheckString(t, filepath.Join("testdata", "rundocs", tt.name), out)
		})
	}
}

func TestStatusExitCodes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := runCLI(t, "status", dir)
	want := "error: " + filepath.Join(dir, "compliance-log.md") + " not found.\n"
	if code != 2 || out != "" || errOut != want {
		t.Fatalf("before init: exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errOut, want)
	}
	runCLI(t, "init", dir)
	code, out, _ = runCLI(t, "status", dir)
	if code != 0 || !strings.Contains(out, "\n2 open (not APPROVED):\n  - P0-T1: PENDING\n  - P0-G1: PENDING\n") {
		t.Fatalf("after init: exit %d\n%s", code, out)
	}
}

func TestStatusLogOnly(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "compliance-log.md", "# Log\n\nNothing reported yet.\n")
	code, out, errOut := runCLI(t, "status", dir)
	if code != 0 || out != "no task entries found in compliance-log.md.\n" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestStatusJSON(t *testing.T) {
	_, out, _ := runCLI(t, "status", exampleDir, "--json")
	var doc struct {
		Version int
		Items   []struct{ ID, State string }
		Phases  []struct {
			ID     string
			Title  string
			Weight float64
		}
		Open []string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("status --json is not JSON: %v", err)
	}
	if diff := cmp.Diff([]string{"P1-T2", "P1-G1"}, doc.Open); diff != "" {
		t.Errorf("open (-want +got):\n%s", diff)
	}
	if len(doc.Phases) != 3 || doc.Phases[1].Title != "Nightly reconciliation" || doc.Phases[1].Weight != 3 {
		t.Errorf("phases = %+v", doc.Phases)
	}
}

func TestStatusBadInput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "compliance-log.md", "ok\n\xff")
	code, out, errOut := runCLI(t, "status", dir)
	if code != 2 || out != "" || !strings.Contains(errOut, "not valid UTF-8") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
