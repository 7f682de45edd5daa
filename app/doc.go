// Package app is the GitHub App (aepgate serve): the wiring of the webhook
// edge (package app/webhook), which verifies deliveries, to the River queue
// on the App's database, which records and enqueues them; the families
// list (families.go) and the handlers of the typed work they derive from
// each delivery, and of the sweep's (handlers.go); and the pull-request
// pipeline (evaluate.go) that reads a head's snapshot and what its checks
// declare, has package app/verdict decide every check and answer from it, keeps accepted owner decisions
// (kept.go), writes only what changed and records the ledger; readback,
// certificates, releases and the board run beside it (app/readback,
// app/release, app/board), all writing through one app/writer.Writer.
package app
