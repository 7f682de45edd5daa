// Package instructor finds who instructed an agent: the people who count
// as authors of a pull request an agent made. It is pure: the unit issue's
// assignment events in, the instructors out.
//
// A listed agent (config key agents) acts for whoever asked it. On GitHub
// an agent is asked by assigning it to an issue, so for a pull request an
// agent authored or committed, the sender of every event that assigned a
// listed agent to the unit's issue, and everyone assigned to the issue at
// that moment, is an instructor (docs/audit.md, "Agents and their
// instructors").
package instructor
