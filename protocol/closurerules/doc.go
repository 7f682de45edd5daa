// Package closurerules is the rule of when a work unit counts as done
// (craft-rules §3.4, §4.1): its issue is closed as completed and either a
// merged attempt carries a valid aepgate/certificate, or the unit is low
// risk and a merged attempt passed aepgate/merge and aepgate/readback at its
// merge commit, or an owner closed it themselves or said `/aep close
// <reason>`. Anything else is closed without evidence. A closure while a
// HOLD applies is never evidence. The package is pure: facts in, a verdict
// out; the App gathers the facts and acts on the verdict.
package closurerules
