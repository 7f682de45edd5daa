//go:build !race

package webhook

// raceDetector says the tests run under the race detector (see
// race_on_test.go).
const raceDetector = false
