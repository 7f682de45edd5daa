//go:build race

package webhook

// raceDetector says the tests run under the race detector, which
// multiplies memory: bounds on memory are measured without it.
const raceDetector = true
