package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// Speed is how fast the App under the demo runs.
type Speed string

// The speeds.
const (
	// Fast shrinks the App's write pause, retry base and queue poll
	// interval so a scenario takes seconds.
	Fast Speed = "fast"
	// Real keeps `aepgate serve`'s defaults (a second between writes).
	Real Speed = "real"
)

// Speeds lists the valid speeds.
func Speeds() []string { return []string{string(Fast), string(Real)} }

// CLI runs one aepgate command line (the binary's own entry point) and
// returns what it printed and its exit code; the demo uses it for
// `certificate fetch` and `ledger verify`.
type CLI func(ctx context.Context, args []string) (stdout, stderr string, code int)

// Options configure one demo run.
type Options struct {
	// Out is the folder the report is written to (created if missing).
	Out string
	// Speed is Fast or Real ("" means Fast).
	Speed Speed
	// Scenario is one of Scenarios() ("" means happy).
	Scenario string
	// Progress receives one line per step as it happens; nil discards.
	Progress io.Writer
	// CLI, when set, runs `certificate fetch` and `ledger verify` as the
	// binary does; without it the demo checks both through the same
	// packages those commands use.
	CLI CLI
}

// ErrUsage marks a bad scenario or speed, or a report folder that cannot
// be made.
var ErrUsage = errors.New("demo: bad usage")

// check validates and defaults o.
func (o *Options) check() error {
	if o.Speed == "" {
		o.Speed = Fast
	}
	if o.Scenario == "" {
		o.Scenario = "happy"
	}
	if !slices.Contains(Speeds(), string(o.Speed)) {
		return fmt.Errorf("%w: --speed %q: use %s", ErrUsage, o.Speed, strings.Join(Speeds(), " or "))
	}
	if _, ok := scenarios[o.Scenario]; !ok {
		return fmt.Errorf("%w: --scenario %q: use one of %s", ErrUsage, o.Scenario, strings.Join(Scenarios(), ", "))
	}
	if o.Out == "" {
		return fmt.Errorf("%w: an output folder is required", ErrUsage)
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return nil
}

// Run plays the scenario, writes the report into o.Out and returns what
// happened. A scenario whose final state is not what it should be still
// writes its report; Result.Problems says what went wrong.
func Run(ctx context.Context, o Options) (*Result, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		// A file in the way (a binary named like the folder, say) is the
		// caller's to move: a usage error, not a failed scenario.
		return nil, fmt.Errorf("%w: --out %s cannot be the report folder: %v", ErrUsage, o.Out, err)
	}
	start := time.Now()
	w, err := newWorld(ctx, o)
	if err != nil {
		return nil, err
	}
	defer w.close()
	sc := scenarios[o.Scenario]
	w.rec.total = sc.steps
	fmt.Fprintf(o.Progress, "aepgate-demo: scenario %s (%s), speed %s; GitHub simulated at %s, App at %s\n",
		o.Scenario, sc.about, o.Speed, w.f.URL(), w.base)
	storyErr := sc.play(ctx, w)
	res := w.finish(context.WithoutCancel(ctx), time.Since(start))
	if storyErr != nil {
		res.Problems = append(res.Problems, storyErr.Error())
	}
	if err := writeReport(o.Out, res); err != nil {
		return res, err
	}
	printFigures(o.Progress, res, o.Out)
	return res, nil
}
