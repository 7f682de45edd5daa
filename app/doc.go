// Package app is the GitHub App (aepgate serve): the wiring of the webhook
// edge (package app/webhook), which verifies deliveries, to the River queue
// on the App's database, which records and enqueues them; the handlers per
// event family; and the work-unit evaluation that posts the
// aepgate/work-unit check run and writes the ledger.
package app
