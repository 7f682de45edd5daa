package mcpserve

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aepgate/aepgate/checks"
)

// fakeCLI answers Run with out, or panics when panics is set; it records
// the argument lists it was given.
type fakeCLI struct {
	out    Output
	panics bool
	args   *[][]string
}

func (f fakeCLI) Run(_ context.Context, _ string, args ...string) Output {
	*f.args = append(*f.args, args)
	if f.panics {
		panic("boom")
	}
	return f.out
}

func (fakeCLI) Simulate(context.Context, Simulation) ([]checks.Run, error) { return nil, nil }
func (fakeCLI) RunsText([]checks.Run) string                               { return "" }

// session connects the SDK's client to a server over cli.
func session(t *testing.T, cli CLI) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New("test", cli, slog.New(slog.DiscardHandler)).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// TestToolErrors: a command that could not do its work is a tool error
// carrying its message, a panicking one is a tool error too, and the
// server answers the next call; the folder comes after "--" and each
// flag as --name=value.
func TestToolErrors(t *testing.T) {
	tests := []struct {
		name     string
		cli      fakeCLI
		args     map[string]any
		wantText string
		wantArgs []string
	}{
		{"exit 2", fakeCLI{out: Output{Stderr: "error: x is missing compliance-log.md\n", Code: 2}}, map[string]any{"dir": "x"},
			"lint: x is missing compliance-log.md", []string{"lint", "--format", "text", "--", "x"}},
		{"a panic", fakeCLI{panics: true}, map[string]any{"dir": "-x", "annex_threshold": 3},
			"lint: internal error: boom", []string{"lint", "--annex-threshold=3", "--format", "text", "--", "-x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args [][]string
			tt.cli.args = &args
			cs := session(t, tt.cli)
			for range 2 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolLint, Arguments: tt.args})
				if err != nil {
					t.Fatalf("protocol error: %v", err)
				}
				text := res.Content[0].(*mcp.TextContent).Text
				if !res.IsError || text != tt.wantText {
					t.Errorf("error %v, text %q; want a tool error %q", res.IsError, text, tt.wantText)
				}
			}
			if len(args) != 2 || strings.Join(args[0], " ") != strings.Join(tt.wantArgs, " ") {
				t.Errorf("ran %q, want twice %q", args, tt.wantArgs)
			}
		})
	}
}
