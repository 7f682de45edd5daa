package action

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sethvargo/go-githubactions"

	"github.com/aepgate/aepgate/protocol/status"
)

// parseOutputFile reads $GITHUB_OUTPUT as the Actions runner does
// (FileCommandManager): "name=value" lines, or "name<<DELIM" followed by
// lines up to one equal to DELIM. Later values of a name win.
func parseOutputFile(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("unterminated block for %s", name)
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, _ := strings.Cut(line, "=")
		out[name] = val
	}
	return out
}

// injection is status text an attacker put in a pull request (a run
// document's ID ends up in status-json): it closes go-githubactions' fixed
// delimiter and sets the conclusion output to success.
const injection = "P0-T1\n_GitHubActionsFileCommandDelimeter_\nconclusion=success\nx<<_GitHubActionsFileCommandDelimeter_\ntail"

func TestOutputsResistInjection(t *testing.T) {
	text, err := formatOutputs([]output{{"conclusion", "failure"}, {"status-json", injection}}, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	got := parseOutputFile(t, text)
	want := map[string]string{"conclusion": "failure", "status-json": injection}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}

// TestFixedDelimiterInjectionNegativeControl is the negative control of the
// test above: go-githubactions' SetOutput, with its fixed delimiter, lets
// the same value overwrite the conclusion.
func TestFixedDelimiterInjectionNegativeControl(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	a := githubactions.New(githubactions.WithGetenv(func(k string) string {
		if k == "GITHUB_OUTPUT" {
			return path
		}
		return ""
	}), githubactions.WithWriter(&bytes.Buffer{}))
	a.SetOutput("conclusion", "failure")
	a.SetOutput("status-json", injection)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := parseOutputFile(t, string(b))
	if got["conclusion"] != "success" {
		t.Fatalf("the injection did not take with the fixed delimiter (conclusion = %q); the negative control proves nothing", got["conclusion"])
	}
}

// fixedRand returns the same bytes every time: an attacker who knows the
// delimiter.
type fixedRand struct{}

func (fixedRand) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0xab
	}
	return len(p), nil
}

func TestOutputsRefuseValueHoldingDelimiter(t *testing.T) {
	delim, _ := delimiter(fixedRand{})
	_, err := formatOutputs([]output{{"x", "a\n" + delim + "\nconclusion=success"}}, fixedRand{})
	if err == nil {
		t.Fatal("a value holding the delimiter was written")
	}
}

func TestOutputsRefuseBadNames(t *testing.T) {
	for _, name := range []string{"", "a\nb", "a<<b", "a=b"} {
		if _, err := formatOutputs([]output{{name, "v"}}, rand.Reader); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
}

func FuzzFormatOutputs(f *testing.F) {
	f.Add("failure", injection)
	f.Add("", "\n\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		text, err := formatOutputs([]output{{"conclusion", a}, {"status-json", b}}, rand.Reader)
		if err != nil {
			return
		}
		got := parseOutputFile(t, text)
		if got["conclusion"] != a || got["status-json"] != b || len(got) != 2 {
			t.Fatalf("round trip changed the outputs: %s", fmt.Sprint(got))
		}
	})
}

func TestStatusOutputOmitsItemsWhenLarge(t *testing.T) {
	var items []status.Item
	for i := range 20000 {
		items = append(items, status.Item{ID: fmt.Sprintf("P0-T%d", i), State: "PENDING"})
	}
	rep := status.Report{Version: 1, Dir: "docs/run", Items: items, Open: []string{"P0-T1"}, Counts: map[string]int{"PENDING": 20000}}
	js, err := statusOutput([]statusJSON{{Dir: "docs/run", Status: &rep}})
	if err != nil {
		t.Fatal(err)
	}
	if len(js) > MaxStatusJSONBytes || !strings.Contains(string(js), `"items_omitted":true`) || !strings.Contains(string(js), `"PENDING":20000`) {
		t.Errorf("status-json of %d bytes: %.300s", len(js), js)
	}
	small, _ := statusOutput([]statusJSON{{Dir: "d", Status: &status.Report{Items: items[:2]}}})
	if strings.Contains(string(small), "items_omitted") {
		t.Error("a small report lost its items")
	}
}
