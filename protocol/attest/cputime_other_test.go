//go:build !unix

package attest

import "time"

// cpuTime is not measured outside Unix: the benchmarks report 0 CPU time.
func cpuTime() time.Duration { return 0 }
