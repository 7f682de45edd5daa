// Package archtest holds the test that enforces DESIGN.md's import rules:
// the pure packages stay pure and dependencies point one way.
package archtest
