package action

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// output is one step output.
type output struct{ name, value string }

// formatOutputs renders outputs as $GITHUB_OUTPUT's multi-line syntax,
// "name<<DELIM\nvalue\nDELIM", each with a fresh random delimiter read from
// rnd. A value (which may hold text from the pull request) cannot end its
// block early and inject another output: it would have to guess 128 random
// bits, and a value that contains the delimiter anyway is refused.
// go-githubactions' SetOutput uses one fixed delimiter, which a value can
// simply contain (go-githubactions v1.3.0, SetOutput).
func formatOutputs(outs []output, rnd io.Reader) (string, error) {
	var b strings.Builder
	for _, o := range outs {
		if o.name == "" || strings.ContainsAny(o.name, "\r\n<=") {
			return "", fmt.Errorf("write outputs: invalid output name %q", o.name)
		}
		delim, err := delimiter(rnd)
		if err != nil {
			return "", err
		}
		if strings.Contains(o.value, delim) {
			return "", fmt.Errorf("write outputs: the value of %s contains the delimiter", o.name)
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", o.name, delim, o.value, delim)
	}
	return b.String(), nil
}

// delimiter is "ghadelimiter_" and 32 random hex digits, as actions/toolkit
// writes it.
func delimiter(rnd io.Reader) (string, error) {
	var buf [16]byte
	if _, err := io.ReadFull(rnd, buf[:]); err != nil {
		return "", fmt.Errorf("write outputs: random delimiter: %w", err)
	}
	return "ghadelimiter_" + hex.EncodeToString(buf[:]), nil
}

// appendFile appends text to the file at path (GITHUB_OUTPUT or
// GITHUB_STEP_SUMMARY). An empty path does nothing: the step runs outside
// Actions.
func appendFile(path, text string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// defaultRand is the delimiter's randomness.
var defaultRand io.Reader = rand.Reader
