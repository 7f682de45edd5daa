// Package app is the GitHub App (aepgate serve): the webhook edge that
// verifies and durably enqueues deliveries, the River queue on the App's
// database, the handlers per event family, and the work-unit evaluation that
// posts the aepgate/work-unit check run and writes the ledger.
package app
