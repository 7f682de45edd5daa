package command

import (
	"strconv"
	"strings"
)

// VerbAccept is the owner's acceptance of an increment's integrated
// candidate (protocol/incrementrules, docs/increment.md): "accept
// <milestone-number> <sha>". The SHA binds the acceptance to one candidate:
// a later candidate needs a new acceptance (craft-rules §5.5).
const VerbAccept = "accept"

// parseAccept reads the milestone number and the candidate SHA of "accept".
func parseAccept(c *Command, args []string, prefix string) {
	if len(args) != 3 {
		c.Err = usageErr(prefix, "accept takes exactly a milestone number and the integrated commit's full SHA")
		return
	}
	n, err := strconv.Atoi(strings.TrimPrefix(args[1], "#"))
	if err != nil || n <= 0 || strings.HasPrefix(args[1], "+") {
		c.Err = usageErr(prefix, "accept: %q is not a milestone number", args[1])
		return
	}
	if !fullSHA(args[2]) {
		c.Err = usageErr(prefix, "accept: %q is not a full 40-character commit SHA", args[2])
		return
	}
	c.Milestone, c.SHA = n, strings.ToLower(args[2])
}

// fullSHA reports a 40-character hexadecimal commit SHA (either case).
func fullSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, r := range strings.ToLower(s) {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}
