package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGatesAndMergeAuto: gates.<category>.approvals decodes for owner-only
// gate categories, 1 to 10; merge.auto is a boolean; anything else is a
// positioned error.
func TestGatesAndMergeAuto(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       map[string]GateRule
		wantAuto   bool
		wantErr    string
	}{
		{"unset", "version: 1\n", nil, false, ""},
		{"two owners for irreversible", "version: 1\ngates:\n  irreversible-destructive:\n    approvals: 2\n",
			map[string]GateRule{"irreversible-destructive": {Approvals: 2}}, false, ""},
		{"merge.auto", "version: 1\nmerge:\n  auto: true\n", nil, true, ""},
		{"merge.auto not a boolean", "version: 1\nmerge:\n  auto: yes please\n", nil, false, "x.yml:3:9: merge.auto: must be true or false"},
		{"unknown category", "version: 1\ngates:\n  deploy:\n    approvals: 2\n", nil, false,
			`x.yml:3:3: gates.deploy: "deploy" is not an owner-only gate category (expected one of conflicting-direct-owner-priorities, explicit-hold,`},
		{"approvals missing", "version: 1\ngates:\n  secrets-credentials: {}\n", nil, false, "gates.secrets-credentials.approvals: required"},
		{"zero approvals", "version: 1\ngates:\n  secrets-credentials:\n    approvals: 0\n", nil, false, "x.yml:4:16: gates.secrets-credentials.approvals: must be between 1 and 10, not 0"},
		{"too many", "version: 1\ngates:\n  secrets-credentials:\n    approvals: 11\n", nil, false, "must be between 1 and 10, not 11"},
		{"not a number", "version: 1\ngates:\n  secrets-credentials:\n    approvals: two\n", nil, false, "must be a whole number"},
		{"unknown key", "version: 1\ngates:\n  secrets-credentials:\n    approvals: 2\n    count: 2\n", nil, false, "gates.secrets-credentials.count: unknown key"},
		{"a HOLD is one owner's", "version: 1\ngates:\n  explicit-hold: {approvals: 2}\n", nil, false, "gates.explicit-hold: a HOLD is lifted by one owner's RESUME"},
		{"a list", "version: 1\ngates: [irreversible-destructive]\n", nil, false, "gates: must be a mapping of gate categories"},
		{"duplicate", "version: 1\ngates:\n  secrets-credentials: {approvals: 2}\n  secrets-credentials: {approvals: 3}\n", nil, false, "duplicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("x.yml", []byte(tt.yaml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, c.Gates, cmpEmptyMap); diff != "" {
				t.Errorf("gates (-want +got):\n%s", diff)
			}
			if c.Merge.Auto != tt.wantAuto {
				t.Errorf("merge.auto = %v, want %v", c.Merge.Auto, tt.wantAuto)
			}
		})
	}
	c := &Config{Gates: map[string]GateRule{"irreversible-destructive": {Approvals: 2}}}
	if got := c.ApprovalsFor("irreversible-destructive"); got != 2 {
		t.Errorf("ApprovalsFor(irreversible-destructive) = %d, want 2", got)
	}
	if got := c.ApprovalsFor("secrets-credentials"); got != 1 {
		t.Errorf("ApprovalsFor(unlisted) = %d, want 1", got)
	}
}

// cmpEmptyMap equates nil and empty maps.
var cmpEmptyMap = cmp.FilterValues(func(a, b map[string]GateRule) bool { return len(a) == 0 && len(b) == 0 }, cmp.Comparer(func(a, b map[string]GateRule) bool { return true }))

// TestGatesAndMergeAutoExtend: under extends a repository may ask for more
// approvals, never fewer, and may turn merge.auto off but not on; the
// negative controls drop each rule and watch the repository loosen the
// base.
func TestGatesAndMergeAutoExtend(t *testing.T) {
	base := "version: 1\nmerge:\n  auto: false\ngates:\n  irreversible-destructive: {approvals: 2}\n"
	repo := ext + "merge:\n  auto: true\ngates:\n  irreversible-destructive: {approvals: 1}\n  secrets-credentials: {approvals: 3}\n"
	tests := []struct {
		name      string
		rules     []MergeRule
		wantGates map[string]GateRule
		wantAuto  bool
	}{
		{"the stricter of each", DefaultMergeRules(),
			map[string]GateRule{"irreversible-destructive": {Approvals: 2}, "secrets-credentials": {Approvals: 3}}, false},
		{"negative control: without the gates rule the repository lowers the base's approvals", without(DefaultMergeRules(), "gates"),
			map[string]GateRule{"irreversible-destructive": {Approvals: 1}, "secrets-credentials": {Approvals: 3}}, false},
		{"negative control: without the merge.auto rule the repository turns it on", without(DefaultMergeRules(), "merge.auto"),
			map[string]GateRule{"irreversible-destructive": {Approvals: 2}, "secrets-credentials": {Approvals: 3}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := resolveText(t, base, repo, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantGates, r.Config.Gates); diff != "" {
				t.Errorf("gates (-want +got):\n%s", diff)
			}
			if r.Config.Merge.Auto != tt.wantAuto {
				t.Errorf("merge.auto = %v, want %v", r.Config.Merge.Auto, tt.wantAuto)
			}
		})
	}
}

// TestGateApprovals: the categories the gates mapping lists, each with
// its number of owners; an unlisted category needs one.
func TestGateApprovals(t *testing.T) {
	c, err := Parse("x.yml", []byte("version: 1\ngates:\n  irreversible-destructive: {approvals: 2}\n  secrets-credentials: {approvals: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"irreversible-destructive": 2, "secrets-credentials": 3}
	if d := cmp.Diff(want, c.GateApprovals()); d != "" {
		t.Errorf("GateApprovals (-want +got):\n%s", d)
	}
	if n := c.ApprovalsFor("money-entitlements"); n != 1 {
		t.Errorf("an unlisted category needs %d owners, want 1", n)
	}
}
