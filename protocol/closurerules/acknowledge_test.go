package closurerules

import (
	"strings"
	"testing"
	"time"
)

// TestAcknowledge: each refused `/aep close` is refused by its rule, and
// with that rule removed (the negative control) the same comment counts.
func TestAcknowledge(t *testing.T) {
	edited := closeCmd(owner)
	edited.Updated = t0.Add(time.Minute)
	asEdit := closeCmd(owner)
	asEdit.Event = "issue_comment.edited"
	noReason := closeCmd(owner)
	noReason.Reason = ""
	open := Facts{Number: 7, Open: true, Owners: []string{"olivia"}}
	closedUnderHold := with(closed(coordinator, "medium"), func(f *Facts) { f.Hold = "legal review" })
	tests := []struct {
		name  string
		facts Facts
		cmd   Command
		hold  string
		rule  string // the rule whose removal lets it count; "" for a command that counts
		want  string // part of the refusal
	}{
		{"the owner, issue open", open, closeCmd(owner), "", "", ""},
		{"the owner, after a coordinator's closure", closed(coordinator, "medium"), closeCmd(owner), "", "", ""},
		{"a coordinator", open, closeCmd(coordinator), "", "listed-owner", "carl is not listed in owners (olivia); only an owner's own `close` counts"},
		{"a bot with the owner's login", open, closeCmd(Actor{Login: "olivia", Type: "Bot", Permission: "write"}), "", "human-owner", `"Bot" account`},
		{"an owner without write", open, closeCmd(Actor{Login: "olivia", Type: "User", Permission: "read"}), "", "live-write", `permission is "read"`},
		{"an edited comment", open, edited, "", "not-edited", "was edited after it was posted; only a newly created, unedited comment is a command"},
		{"an edit event", open, asEdit, "", "created-only", "counts only as a newly created comment"},
		{"under a HOLD now", open, closeCmd(owner), "release freeze", "hold-voids", "a HOLD applies (release freeze)"},
		{"closed under HOLD", closedUnderHold, closeCmd(owner), "", "hold-voids", "#7 was closed while a HOLD applied (legal review)"},
		{"no reason", open, noReason, "", "-", "needs a reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Acknowledge(tt.facts, tt.cmd, tt.hold, DefaultRules())
			if tt.want == "" {
				if got != "" {
					t.Fatalf("refused: %s", got)
				}
				return
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("Acknowledge = %q, want it to hold %q", got, tt.want)
			}
			if tt.rule == "-" {
				return // no rule: a command without a reason is malformed
			}
			if got := Acknowledge(tt.facts, tt.cmd, tt.hold, without(tt.rule)); got != "" {
				t.Errorf("negative control: without %q still refused: %s", tt.rule, got)
			}
		})
	}
}
