//go:build !race

package app_test

// raceDetector says the tests run under the race detector (see
// race_on_test.go).
const raceDetector = false
