// Package deployrules decides a deployment protection rule request (craft §5.4:
// no irreversible action without direct owner authority): whether the
// environment's rule (protocol/config Deploy) lets the commit go out now,
// must wait for the owner's answer to a deploy gate, or is rejected, and
// why. It is pure: the caller reads the config, what the commit carries and
// the gate log, and acts on the Answer.
package deployrules
