// Package mcpserve is `aepgate mcp`: a Model Context Protocol server, on
// the official Go SDK, that lets a coding agent run aepgate's checks on
// its own work before a person or the App sees it (docs/mcp.md). Each tool
// runs the command line's own code path (the composition root, package
// cli, supplies it as a CLI) and returns that command's text and its JSON
// as the tool's structured output. Nothing a tool does writes to GitHub.
package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aepgate/aepgate/cmd/internal/mcpport"
)

// Output, Simulation and CLI are what the tools run (package
// cmd/internal/mcpport, which the command line implements without linking
// this package's SDK).
type (
	Output     = mcpport.Output
	Simulation = mcpport.Simulation
	CLI        = mcpport.CLI
)

// New returns the server with every tool, named aepgate at version.
func New(version string, cli CLI, log *slog.Logger) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "aepgate", Title: "aepgate", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	t := tools{cli: cli, log: log}
	t.register(srv)
	return srv
}

// instructions tell the agent what the server is for.
const instructions = `aepgate checks the Auditor/Executor protocol's evidence. Run lint and status on a run folder
after writing to it, review_check on a draft audit review before posting it, plans_verify on a plan folder,
report_check on a draft pull request description, and what_blocks on an open pull request to learn the next
step. Every tool only reads; none writes to GitHub.`

// Run serves every tool, named aepgate at version, running cli, on in and
// out until the client closes in or ctx ends: New then Serve (aepgate-app's
// cli.App.ServeMCP).
func Run(ctx context.Context, version string, cli CLI, log *slog.Logger, in io.Reader, out io.Writer) error {
	return Serve(ctx, New(version, cli, log), in, out)
}

// Serve serves srv on in and out (the process's standard streams) until
// the client closes in or ctx ends.
func Serve(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer) error {
	err := srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	if err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		return fmt.Errorf("serve: %w", err)
	}
	return ctx.Err()
}

// nopWriteCloser leaves the process's standard output open when the
// transport closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// tools holds what every tool handler shares.
type tools struct {
	cli CLI
	log *slog.Logger
}

// readOnly annotates a tool that changes nothing; open is whether it
// reaches GitHub.
func readOnly(title string, open bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &open}
}

// logged wraps a handler to log its name, how long it took and whether it
// failed (never its arguments or its output), and to turn a panic into the
// tool's error, so that one bad call never ends the server.
func logged[In, Out any](t tools, name string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("%s: internal error: %v", name, p)
				t.log.Error("tool call panicked", "tool", name, "panic", fmt.Sprint(p))
			}
			t.log.Info("tool call", "tool", name, "ms", time.Since(start).Milliseconds(), "error", err != nil)
		}()
		return h(ctx, req, in)
	}
}

// text is a result whose content is the command's text.
func text(s ...string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	for _, t := range s {
		res.Content = append(res.Content, &mcp.TextContent{Text: t})
	}
	return res
}

// failed is the error a tool returns for a command that could not do its
// work (exit 2 or more): its stderr, which names what was wrong.
func failed(tool string, o Output) error {
	msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(o.Stderr), "error: "))
	if msg == "" {
		msg = fmt.Sprintf("exit %d", o.Code)
	}
	return fmt.Errorf("%s: %s", tool, msg)
}
