//go:build race

package app_test

// raceDetector says the tests run under the race detector, which
// multiplies memory and slows everything: bounds on memory are measured
// without it.
const raceDetector = true
