package command

import "strings"

// VerbClose counts a closed work unit as done on the owner's word
// (protocol/closurerules, docs/closure.md): "close <reason>".
const VerbClose = "close"

// parseClose reads the reason of "close".
func parseClose(c *Command, rest, prefix string) {
	c.Reason = strings.TrimSpace(strings.TrimSpace(rest)[len(VerbClose):])
	if c.Reason == "" {
		c.Err = usageErr(prefix, "close needs a reason")
	}
}
