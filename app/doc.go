// Package app is the GitHub App (aepgate serve): the wiring of the webhook
// edge (package app/webhook), which verifies deliveries, to the River queue
// on the App's database, which records and enqueues them; the table of
// event families that turns each delivery into typed work (families.go,
// work.go); and the pull-request pipeline that judges every check on a
// head, keeps accepted owner decisions (kept.go) and writes the ledger;
// readback, certificates, releases and the board run beside it.
package app
