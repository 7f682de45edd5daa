// Package app is the GitHub App (aepgate serve) and its wiring: New, Run,
// Handler and Options. It wires the edge (package app/webhook), which
// verifies deliveries, to the River queue on the App's database, which
// records and enqueues them; builds each installation's judges from the
// Options (judges.go); lists the event families (families.go), each owned
// by its feature, and registers each feature's handlers of the typed work
// they derive from a delivery or the sweep (handlers.go). The features live below it: the pull-request pipeline (app/pull:
// lock, one read phase, the pure verdict of package app/verdict, the
// writer), the owners' gates (app/gates: kept decisions, answers, the
// control issue, review requests, the status comment), closures
// (app/closure), held work (app/heldwork), readback and certificates
// (app/readback), releases (app/release), increments (app/increment),
// deployments (app/deploy) and the board (app/board), all writing through
// one app/writer.Writer.
package app
