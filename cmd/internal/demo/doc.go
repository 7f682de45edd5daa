// Package demo is `aepgate-demo`: it runs the real App (the same code as
// `aepgate serve`, River on an embedded SQLite, the same check runs) against
// the simulated GitHub of internal/testkit/ghfake in-process, plays a scripted story
// through signed webhooks, prints one line per step and writes a
// self-contained report (index.html and timeline.json).
//
// Scenarios: happy (one increment from its first issue to a certificate and
// a release), attacks (forged webhook, non-owner resolve, bot owner, edited
// command, pull-request CI offered as readback, stale audit — each refused)
// and outage (GitHub answers 502 and secondary rate limits for a while; the
// App catches up and duplicates nothing). docs/demo.md describes them.
//
// This package is the one production user of internal/testkit/ghfake; it reaches
// only the fake's scenario API and its fault injection, never the
// protections negative-control tests remove.
package demo
