package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/negcontrol"
)

// readInput reads path ("-": standard input) as a file of kind k through
// internal/readfile: regular files only, at most the kind's cap, and given
// up when ctx ends (Ctrl-C).
func readInput(ctx context.Context, stdin io.Reader, path string, k readfile.Kind) ([]byte, error) {
	return readfile.Input(ctx, stdin, path, k)
}

// readFailed ends a command whose input could not be read: exit 130 when
// the read was interrupted, 2 otherwise, with "error: <prefix>: <why>".
func readFailed(prefix string, err error) error {
	code := 2
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		code = negcontrol.ExitInterrupted
	}
	return failf(code, "%s: %w", prefix, err)
}

// shown is a path as messages print it (internal/readfile's Quote).
func shown(path string) string { return readfile.Quote(path) }

// inputLimits is the paragraph of --help naming the input caps.
func inputLimits(what string, k readfile.Kind) string {
	return fmt.Sprintf("%s must be a regular file of at most %d MB", what, k.Max()>>20)
}
