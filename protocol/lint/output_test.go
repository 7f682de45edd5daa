package lint

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/rundir"
	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/rundoc"
	"github.com/aepgate/aepgate/protocol/status"
)

// outputs renders what `aepgate lint` and `aepgate status` print for a run,
// text and JSON (encoded as the CLI encodes it), keyed by a file suffix.
func outputs(t testing.TB, run *rundoc.Run, dir string) map[string]string {
	t.Helper()
	res := Check(run, DefaultOptions())
	rep := status.Compute(run, dir)
	return map[string]string{
		"lint.txt":    res.Text(),
		"lint.json":   cliJSON(t, res.JSON(dir)),
		"status.txt":  rep.Text(),
		"status.json": cliJSON(t, rep),
	}
}

// cliJSON encodes v as the CLI's --json output does.
func cliJSON(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var outputKinds = []string{"lint.txt", "lint.json", "status.txt", "status.json"}

// TestOutputUnchanged pins lint's and status's output, byte for byte, on
// the examples and on generated runs, so that work on the parser's speed
// cannot change what a user sees. Small runs are kept whole; large ones as
// a SHA-256 digest and length.
func TestOutputUnchanged(t *testing.T) {
	small := []struct{ name, dir string }{
		{"ledger-service", "../../examples/ledger-service"},
		{"cli-problems", "../../cmd/internal/cli/testdata/rundocs/problems"},
	}
	for _, tt := range small {
		run, err := rundir.Load(tt.dir)
		if err != nil {
			t.Fatalf("load %s: %v", tt.dir, err)
		}
		checkOutputs(t, tt.name, outputs(t, run, "docs/run"))
	}
	checkOutputs(t, "messy-300", outputs(t, rundoc.Parse(messyRun(300, 7)), "docs/run"))

	large := []struct {
		name  string
		files rundoc.Files
	}{
		{"clean-2000", bigRun(20, 100)},
		{"messy-5000", messyRun(5000, 1)},
		{"messy-crlf-3000", crlf(messyRun(3000, 2))},
	}
	var digests strings.Builder
	for _, tt := range large {
		out := outputs(t, rundoc.Parse(tt.files), "docs/run")
		for _, kind := range outputKinds {
			fmt.Fprintf(&digests, "%s.%s %d %x\n", tt.name, kind, len(out[kind]), sha256.Sum256([]byte(out[kind])))
		}
	}
	golden.CheckString(t, filepath.Join("testdata", "output", "digests.golden"), digests.String())
}

func checkOutputs(t *testing.T, name string, out map[string]string) {
	t.Helper()
	for _, kind := range outputKinds {
		golden.CheckString(t, filepath.Join("testdata", "output", name+"."+kind+".golden"), out[kind])
	}
}

// crlf rewrites every document with CRLF line ends.
func crlf(f rundoc.Files) rundoc.Files {
	for name, b := range f.Docs {
		f.Docs[name] = strings.ReplaceAll(b, "\n", "\r\n")
	}
	return f
}
