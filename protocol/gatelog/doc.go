// Package gatelog turns what GitHub holds about a work unit (the comments
// and reviews of its issue, its pull requests and the repository's control
// issue) into a gate.Log, replays it, and says what each command did.
//
// Authority comes only from who sent an item, never from what it says:
// each "who counts" rule (DefaultRules) is a small function of the sender,
// the item and the place, and a refused command changes nothing. The result
// is derived afresh on every evaluation, so redelivered or reordered
// webhooks change nothing (docs/gates.md).
package gatelog
