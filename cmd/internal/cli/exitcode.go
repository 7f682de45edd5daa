package cli

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/gh"
)

// The exit codes every command uses (exitCodes is their one table: the
// README and every --help show it).
const (
	// exitOK: done; nothing found, verified, written.
	exitOK = 0
	// exitFindings: findings, or not verified.
	exitFindings = 1
	// exitUsage: a bad flag or argument, or unreadable input.
	exitUsage = 2
	// exitUnreachable: GitHub or the network did not answer.
	exitUnreachable = 3
	// exitRefused: refused by an owner gate.
	exitRefused = 4
	// exitInterrupted: stopped by SIGINT or SIGTERM, after cleaning up
	// (negcontrol.ExitInterrupted).
	exitInterrupted = 130
)

// exitMeaning is one row of the exit-code table.
type exitMeaning struct {
	Code    int    `json:"code"`
	Meaning string `json:"meaning"`
}

// exitCodes is the exit-code table, in code order.
var exitCodes = []exitMeaning{
	{exitOK, "ok: nothing found, verified, done"},
	{exitFindings, "findings, or not verified (a check failed, a certificate or release refused)"},
	{exitUsage, "usage: a bad flag or argument, or input that cannot be read"},
	{exitUnreachable, "GitHub or the network unreachable (retry later)"},
	{exitRefused, "refused by an owner gate"},
	{exitInterrupted, "interrupted (Ctrl-C or SIGTERM), after cleaning up (serve: 0, its normal stop)"},
}

// exitTable renders exitCodes for --help and the README, one code a line
// under a heading.
func exitTable() string {
	var b strings.Builder
	b.WriteString("Exit codes (the same for every aepgate command):\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "  %-3d  %s\n", e.Code, e.Meaning)
	}
	return b.String()
}

// networkCode is exitUnreachable when err is GitHub or the network not
// answering, otherwise other.
func networkCode(err error, other int) int {
	if gh.Unreachable(err) {
		return exitUnreachable
	}
	return other
}
