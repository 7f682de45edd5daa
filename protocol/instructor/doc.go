// Package instructor finds who instructed an agent: the people who count
// as authors of a pull request an agent made, and the independence rules
// that follow. It is pure: timeline items, pushes and approvals in,
// instructors and decisions out.
//
// A listed agent (config key agents) acts for whoever asked it. Find reads
// the unit issue's assignments: for a pull request an agent authored or
// committed, the sender of every event that assigned a listed agent to the
// unit's issue, and everyone assigned to the issue at that moment, is an
// instructor (docs/audit.md, "Agents and their instructors").
//
// Instructions and PerPush read every channel per push: an assignment on
// the unit issue or the pull request, a comment, review or review comment
// whose body commands the agent (Trigger words), a trigger label, and the
// workflow run that pushed. Decide judges each approval against the
// pushes' instructors: counted, stale, or not counted and why; FateRows
// renders the result.
package instructor
