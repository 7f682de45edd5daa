// Package archtest holds the test that enforces the import rules in the
// README (Layout): the pure packages stay pure and dependencies point one
// way.
package archtest
