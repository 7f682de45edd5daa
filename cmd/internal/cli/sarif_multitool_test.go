package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// multitoolNeed is Microsoft's SARIF multitool, which testdata/package.json
// pins (npm @microsoft/sarif-multitool, a native binary per platform).
var multitoolNeed = skipline.Need{What: "the SARIF multitool", Install: "npm ci --prefix testdata"}

// multitoolRules are the multitool's rule kinds the goldens must pass:
// GitHub Advanced Security's (GH*, what code scanning needs) and SARIF's
// own (SARIF*).
const multitoolRules = "Ghas;Sarif"

// multitool is the multitool's binary under testdata/node_modules, or ""
// when it is not installed.
func multitool() string {
	platform := map[string]string{"windows": "win32"}[runtime.GOOS]
	if platform == "" {
		platform = runtime.GOOS
	}
	bin := filepath.Join("..", "..", "..", "testdata", "node_modules", "@microsoft", "sarif-multitool-"+platform, "Sarif.Multitool")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); err != nil {
		return ""
	}
	abs, _ := filepath.Abs(bin)
	return abs
}

// multitoolFindings validates the SARIF logs at paths (each named *.sarif:
// the multitool skips other names) with multitoolRules and returns every
// error and warning it reports, one line each.
func multitoolFindings(t *testing.T, bin string, paths []string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "validation.sarif")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The paths go before --output and --log: --log takes a list and would
	// take them too.
	args := append([]string{"validate", "--rule-kind", multitoolRules, "--level", "Error;Warning"}, paths...)
	args = append(args, "--output", out, "--log", "ForceOverwrite")
	cmd := exec.CommandContext(ctx, bin, args...)
	// .NET needs ICU for cultures unless told not to; the rules need none.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	stdout, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stdout)
	}
	if want := fmt.Sprintf("Done. %d files scanned.", len(paths)); !strings.Contains(string(stdout), want) {
		t.Fatalf("the multitool did not scan the %d logs:\n%s", len(paths), stdout)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatalf("the multitool's log: %v", err)
	}
	var found []string
	for _, run := range log.Runs {
		for _, r := range run.Results {
			where := ""
			if len(r.Locations) > 0 {
				where = filepath.Base(r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
			}
			found = append(found, fmt.Sprintf("%s: %s %s: %s", where, r.Level, r.RuleID, r.Message.Text))
		}
	}
	return found
}

// sarifGoldens are the SARIF golden files of this package.
func sarifGoldens(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*", "*.sarif.golden"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no SARIF goldens (%v)", err)
	}
	return paths
}

// TestSARIFGoldensPassTheMultitool validates every SARIF golden with
// Microsoft's SARIF multitool and its GitHub rules: no error, no warning.
// The negative control is lint's SARIF as it was before rules carried
// fullDescription and help: the same run of the multitool reports GH2012
// for it, so a pass is not a multitool that read nothing.
func TestSARIFGoldensPassTheMultitool(t *testing.T) {
	bin := multitool()
	if bin == "" {
		skipline.Skip(t, multitoolNeed, "SARIF goldens not validated: the SARIF multitool is not installed (npm ci --prefix testdata)")
	}
	dir := t.TempDir()
	var paths []string
	for _, g := range sarifGoldens(t) {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, strings.NewReplacer("/", "_", "\\", "_", ".golden", "").Replace(g))
		write(t, dir, filepath.Base(p), b)
		paths = append(paths, p)
	}
	if found := multitoolFindings(t, bin, paths); len(found) > 0 {
		t.Errorf("the multitool (--rule-kind %s) reports:\n%s", multitoolRules, strings.Join(found, "\n"))
	}

	old := sarifWithoutRuleHelp(t, paths[0])
	found := multitoolFindings(t, bin, []string{old})
	if !strings.Contains(strings.Join(found, "\n"), "GH2012") {
		t.Errorf("negative control: rules without fullDescription and help, yet no GH2012:\n%s", strings.Join(found, "\n"))
	}
}

// sarifWithoutRuleHelp writes the log at path with its rules' name,
// fullDescription, help and helpUri removed, as a *.sarif file.
func sarifWithoutRuleHelp(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatal(err)
	}
	for _, run := range log["runs"].([]any) {
		driver := run.(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)
		for _, r := range driver["rules"].([]any) {
			for _, k := range []string{"name", "fullDescription", "help", "helpUri"} {
				delete(r.(map[string]any), k)
			}
		}
	}
	dir := t.TempDir()
	write(t, dir, "old.sarif", mustJSON(t, log))
	return filepath.Join(dir, "old.sarif")
}
