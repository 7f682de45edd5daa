// Package queue is the App's durable job queue: River on the App's
// database (SQLite or PostgreSQL), with the jobs it runs — one per
// verified webhook delivery, the periodic reconcile sweep, board updates,
// fan-outs over a repository's open pull requests and coalesced
// re-judgements of one pull request — and the metrics of its depth.
// What each job does is the App's (Runners); this package only keeps,
// schedules, retries and counts them.
package queue
