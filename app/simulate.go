package app

import (
	"context"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/checks"
)

// SimulateSource is what a simulation reads through (pull.SimulateSource).
type SimulateSource = pull.SimulateSource

// Simulation names the pull request a simulation judges (pull.Simulation).
type Simulation = pull.Simulation

// Simulate judges one open pull request as the App would and writes
// nothing (pull.Simulate).
func Simulate(ctx context.Context, src SimulateSource, s Simulation) ([]checks.Run, error) {
	return pull.Simulate(ctx, src, s)
}
