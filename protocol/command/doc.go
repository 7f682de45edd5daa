// Package command reads what people write in issue and pull request
// comments: `/aep` command lines and fenced `aep-gate` blocks (docs/gates.md).
//
// Only text a reader sees as ordinary prose counts. A command is a line that
// starts with the prefix outside fenced code, indented code, block quotes
// (with their lazy continuation lines) and HTML blocks; a gate block is a
// fenced block with the info string aep-gate that is not itself inside a
// quote. Parsing is pure and never fails: a malformed command or block comes
// back with the reason, for the reply.
package command
