// Package app is the GitHub App (aepgate serve) and its wiring: New, Run,
// Handler and Options. It wires the edge (package app/webhook, edge.go),
// which verifies deliveries, to the River queue on the App's database,
// which records and enqueues them; lists the features (features.go), one
// line each: the event families each owns and the registration of its
// handlers of the typed work they derive from a delivery or the sweep;
// builds each installation's judges from the Options (judges.go); and
// schedules the sweep (features.go). The features live below it: the
// pull-request pipeline and its rejudge and fanout jobs (app/pull), the
// owners' gates (app/gates), closures (app/closure), held work
// (app/heldwork), readback and certificates (app/readback), releases
// (app/release), increments (app/increment), deployments (app/deploy),
// contracts (app/contract) and the board (app/board), all writing through
// one app/writer.Writer. docs/features.md maps each feature to its
// packages, rules, rendering and documentation.
package app
