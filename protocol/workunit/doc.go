// Package workunit is the pure model of increments and work units on GitHub:
// a milestone is a product increment, an issue in it is a work unit (a story)
// whose contract is the first fenced yaml block of its body, and a pull
// request is an attempt that names exactly one unit. It turns plain snapshots
// into verdicts with every reason listed; it does no I/O.
package workunit
