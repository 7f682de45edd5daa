// Package gates is the owners' side of the gates (craft-rules §3): it
// keeps the decisions the gate log accepted (kept.go), so an edit or
// deletion of their source comment never lifts them; answers commands with
// a reaction and, when refused, a reply (answer.go); creates the
// repository's control issue when an answer needs it; asks the owners to
// review a blocked pull request; keeps each thread's status comment true;
// and, in the sweep, answers the comments whose webhook was lost. It judges
// pull requests through the pull judge it takes as a port (Judge,
// app/pull), never the other way round: the pull judge calls back only
// through its Gates port, which Gates implements.
package gates
