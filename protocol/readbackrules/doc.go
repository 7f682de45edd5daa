// Package readbackrules decides merged-main readback (craft-rules §4.1): from
// the observed PR CI runs, the merge, and the runs on the default branch at
// the merge SHA, it decides whether every required workflow was seen green
// on main by a run distinct from PR CI, and whether the audited head was
// merged unchanged. It is pure: observations in, tokens out.
package readbackrules
