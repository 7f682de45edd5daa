// Package app is the GitHub App (aepgate serve): the wiring of the webhook
// edge (package app/webhook), which verifies deliveries, to the River queue
// on the App's database, which records and enqueues them; the runner
// (run.go) of the typed work that package app/route's table of event
// families derives from each delivery and the sweep; and the pull-request
// pipeline (evaluate.go) that reads a head's snapshot and what its checks
// declare, has package app/verdict decide every check and answer from it, keeps accepted owner decisions
// (kept.go), writes only what changed and records the ledger; readback,
// certificates, releases and the board run beside it (app/readback,
// app/release, app/board), all writing through one app/writer.Writer.
package app
