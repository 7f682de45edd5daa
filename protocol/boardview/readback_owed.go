package boardview

import (
	"fmt"
	"strings"
)

// readbackOwed is the reason a merged story shows while a readback is
// owed: merge.authority grants coordinators merge authority, which owes
// merge issuance and a readback observer at once (craft-rules §3.7,
// §4.2), and a merged attempt's readback is not yet observed. "" when
// none is owed.
func (in Input) readbackOwed(as []Attempt) string {
	if len(in.MergeCoordinators) == 0 {
		return ""
	}
	var owed []string
	for _, a := range as {
		if a.Merged && !in.ReadBack[a.PR] {
			owed = append(owed, fmt.Sprintf("#%d", a.PR))
		}
	}
	if len(owed) == 0 {
		return ""
	}
	return fmt.Sprintf("readback owed: %s merged and its readback on the default branch is not observed yet (merge authority granted to %s)",
		strings.Join(owed, ", "), strings.Join(in.MergeCoordinators, ", "))
}
