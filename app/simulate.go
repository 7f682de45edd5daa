package app

import (
	"context"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/checks"
)

// SimulateSource and Simulation are a simulation's reads and pull request
// (pull.SimulateSource, pull.Simulation).
type (
	SimulateSource = pull.SimulateSource
	Simulation     = pull.Simulation
)

// Simulate judges one open pull request as the App would and writes
// nothing (pull.Simulate).
func Simulate(ctx context.Context, src SimulateSource, s Simulation) ([]checks.Run, error) {
	return pull.Simulate(ctx, src, s)
}
