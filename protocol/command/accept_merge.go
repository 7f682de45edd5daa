package command

import "strings"

// VerbAcceptMerge is an owner's acceptance of a merge made by someone who
// holds no merge authority (merge.authority; docs/evidence.md, "Merge
// authority"): "accept-merge <merge-sha>", on the merged pull request. The
// SHA binds the acceptance to that one merge commit.
const VerbAcceptMerge = "accept-merge"

// parseAcceptMerge reads the merge SHA of "accept-merge".
func parseAcceptMerge(c *Command, args []string, prefix string) {
	if len(args) != 2 {
		c.Err = usageErr(prefix, "accept-merge takes exactly the merge commit's full SHA")
		return
	}
	if !fullSHA(args[1]) {
		c.Err = usageErr(prefix, "accept-merge: %q is not a full 40-character commit SHA", args[1])
		return
	}
	c.SHA = strings.ToLower(args[1])
}
