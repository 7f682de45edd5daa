// Package appkit is the App's end-to-end test world: a running App (Start)
// on the fake GitHub of internal/testkit/ghfake, fast test Options, the
// shared App key and webhook secret, signed deliveries (Deliver), the world
// of hand-delivered webhooks (World) and the world whose webhooks the fake
// sends (Live), with the waits and counts the tests share.
//
// It is test infrastructure: only _test.go files import it
// (internal/archtest's test-only rule). Each feature package under app/
// runs its end-to-end tests on it as an external test package.
package appkit
