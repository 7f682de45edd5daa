package merge

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRetroAudit: an overridden merge owes a retro-audit until an audit
// PASS at the merged head or merge commit, or a listed owner's unedited
// waiver from a User with live write access.
func TestRetroAudit(t *testing.T) {
	head, mergeSHA := strings.Repeat("a", 40), strings.Repeat("b", 40)
	over := []HeadCheck{{Name: "aepgate/audit", Conclusion: "success", Title: "overridden by olivia: production is down now"}, {Name: "aepgate/merge", Conclusion: "success", Title: "Ready to merge"}}
	waive := func(who, typ string, edited bool) Comment {
		return Comment{ID: 9, Author: Actor{Login: who, Type: typ}, Body: "/aep waive the hotfix was reverted the next day", Edited: edited}
	}
	base := RetroInput{Checks: over, Head: head, MergeSHA: mergeSHA, Owners: []string{"olivia"}, Writers: map[string]bool{"olivia": true, "mallory": true}}
	type got struct {
		Owed      bool
		SettledBy string
	}
	tests := []struct {
		name string
		edit func(*RetroInput)
		want got
	}{
		{"nothing overridden", func(in *RetroInput) { in.Checks = over[1:] }, got{}},
		{"overridden, nothing settles it", func(*RetroInput) {}, got{Owed: true}},
		{"audit PASS at the merged head", func(in *RetroInput) { in.AuditSHA, in.AuditVerdict = head, "PASS" }, got{SettledBy: SettledByAudit}},
		{"audit PASS at the merge commit", func(in *RetroInput) { in.AuditSHA, in.AuditVerdict = mergeSHA, "PASS" }, got{SettledBy: SettledByAudit}},
		{"audit PASS elsewhere", func(in *RetroInput) { in.AuditSHA, in.AuditVerdict = strings.Repeat("c", 40), "PASS" }, got{Owed: true}},
		{"audit FAIL at the head", func(in *RetroInput) { in.AuditSHA, in.AuditVerdict = head, "FAIL" }, got{Owed: true}},
		{"owner's waiver", func(in *RetroInput) { in.Comments = []Comment{waive("olivia", "User", false)} }, got{SettledBy: SettledByWaiver}},
		{"edited waiver", func(in *RetroInput) { in.Comments = []Comment{waive("olivia", "User", true)} }, got{Owed: true}},
		{"writer's waiver", func(in *RetroInput) { in.Comments = []Comment{waive("mallory", "User", false)} }, got{Owed: true}},
		{"bot's waiver", func(in *RetroInput) { in.Comments = []Comment{waive("olivia", "Bot", false)} }, got{Owed: true}},
		{"owner without live write", func(in *RetroInput) {
			in.Comments, in.Writers = []Comment{waive("olivia", "User", false)}, map[string]bool{}
		}, got{Owed: true}},
		{"waiver without a reason", func(in *RetroInput) {
			in.Comments = []Comment{{ID: 9, Author: Actor{Login: "olivia", Type: "User"}, Body: "/aep waive ok"}}
		}, got{Owed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base
			tt.edit(&in)
			r := RetroAudit(in)
			if diff := cmp.Diff(tt.want, got{r.Owed, r.SettledBy}); diff != "" {
				t.Errorf("RetroAudit (-want +got):\n%s", diff)
			}
		})
	}
	if got := WaiverAuthors(RetroInput{Checks: over, Owners: []string{"olivia"}, Comments: []Comment{waive("olivia", "User", false), waive("mallory", "User", false)}}); !cmp.Equal(got, []string{"olivia"}) {
		t.Errorf("WaiverAuthors = %v, want [olivia]", got)
	}
}
