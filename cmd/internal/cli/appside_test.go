package cli

import (
	"context"
	"io"
)

// TestApp is the App's side of the command line (appcmd.Side) for this
// package's tests, which run every command aepgate-app has; it is set by
// appside_ext_test.go, whose package may import cmd/internal/appcmd.
var TestApp *App

// runFull is Run with TestApp: every command aepgate-app has.
func runFull(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return RunWith(ctx, TestApp, args, stdin, stdout, stderr)
}
