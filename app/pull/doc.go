// Package pull is the App's pull-request pipeline: under the pull
// request's lock, one read phase (the snapshot, then the reads each check
// declares: people, contracts, closures, instructors, audits, decisions),
// the pure verdict of every check (package app/verdict), and the writer
// that publishes only what changed and records one ledger row per decision.
// Its Judge is the port other features judge pull requests through
// (app/gates answers comments and judges again through it); merge-queue
// groups and read-only simulations are judged by the same pipeline.
package pull
