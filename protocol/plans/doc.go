// Package plans validates executor plan folders: plans/<slug>/progress.json
// (the contract: phases, tasks, dependencies, conflict zones),
// plans/<slug>/state/phase-<N>.json (what phase N's executor reports) and
// plans/<slug>/state/phase-<N>.review.json (the reviewer's verdict), as
// docs/plans.md describes them.
//
// Parsing is strict (an unknown key, a wrong type or an unknown version is
// an error positioned at its line), and the rules compare a pull request's
// base and head so that a state file cannot claim more than the
// repository's history shows. The package is pure: bytes and plain values
// in, findings out.
package plans
