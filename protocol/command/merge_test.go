package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseOverrideArgs: override names one of the App's pull-request
// checks exactly and gives a reason of at least three words; a HOLD, the
// readback, the certificate and the config are refused with why.
func TestParseOverrideArgs(t *testing.T) {
	tests := []struct {
		name, args         string
		wantCheck, wantWhy string
		wantErr            string
	}{
		{"audit with a reason", "aepgate/audit production is down, hotfix reviewed by phone", "aepgate/audit", "production is down, hotfix reviewed by phone", ""},
		{"tab after the check", "aepgate/merge\tCI runner outage since noon", "aepgate/merge", "CI runner outage since noon", ""},
		{"no reason", "aepgate/audit", "aepgate/audit", "", "at least 3 words"},
		{"two words", "aepgate/audit hotfix now", "aepgate/audit", "hotfix now", "at least 3 words"},
		{"three one-letter words", "aepgate/audit a b c", "aepgate/audit", "a b c", "at least 3 words"},
		{"punctuation is not words", "aepgate/audit ... !!! ???", "aepgate/audit", "... !!! ???", "at least 3 words"},
		{"too long", "aepgate/audit " + strings.Repeat("word ", 61), "aepgate/audit", strings.TrimSpace(strings.Repeat("word ", 61)), "at most 300"},
		{"nothing", "  ", "", "", "override takes a check"},
		{"HOLD", "hold the release is late anyway", "hold", "the release is late anyway", "a HOLD is lifted only by `resume`"},
		{"HOLD in capitals", "HOLD the release is late anyway", "HOLD", "the release is late anyway", "a HOLD is lifted only by `resume`"},
		{"readback", "aepgate/readback main is fine trust me", "aepgate/readback", "main is fine trust me", "the readback is what main showed"},
		{"certificate", "aepgate/certificate we know it is fine", "aepgate/certificate", "we know it is fine", "issued, never overridden"},
		{"config", "aepgate/config the file is fine really", "aepgate/config", "the file is fine really", "fixed on the default branch"},
		{"a short name", "audit the auditor is away today", "audit", "the auditor is away today", `"audit" is not a check an owner may override (expected one of aepgate/work-unit, aepgate/gates, aepgate/audit, aepgate/merge)`},
		{"an Action check", "aep/lint the linter is wrong here", "aep/lint", "the linter is wrong here", "is not a check an owner may override"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check, why, err := ParseOverrideArgs(tt.args)
			if check != tt.wantCheck || why != tt.wantWhy {
				t.Errorf("ParseOverrideArgs(%q) = %q, %q; want %q, %q", tt.args, check, why, tt.wantCheck, tt.wantWhy)
			}
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestOverrideRulesNegativeControls drops each rule of ParseOverrideArgs
// in turn and shows what it stops then gets through: without the reason's
// word count a bare override, without the refusals a HOLD (when the
// allow-list is gone too), without the allow-list an Action's check.
func TestOverrideRulesNegativeControls(t *testing.T) {
	full := overrideRules{allowed: overridable, refused: notOverridable, minWords: MinOverrideWords}
	tests := []struct {
		name  string
		rules overrideRules
		args  string
	}{
		{"reason words", overrideRules{allowed: overridable, refused: notOverridable}, "aepgate/audit"},
		{"HOLD refusal", overrideRules{minWords: MinOverrideWords}, "hold the release is late anyway"},
		{"readback refusal", overrideRules{minWords: MinOverrideWords}, "aepgate/readback main is fine trust me"},
		{"allow-list", overrideRules{refused: notOverridable, minWords: MinOverrideWords}, "aep/lint the linter is wrong here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := full.parse(tt.args); err == nil {
				t.Fatalf("with every rule %q was accepted", tt.args)
			}
			if _, _, err := tt.rules.parse(tt.args); err != nil {
				t.Errorf("without the rule %q was still refused: %v", tt.args, err)
			}
		})
	}
}

func TestParseMergeArgsAndHold(t *testing.T) {
	if err := ParseMergeArgs("  "); err != nil {
		t.Errorf("merge: %v", err)
	}
	if err := ParseMergeArgs("now please"); err == nil || !strings.Contains(err.Error(), "merge takes no arguments") {
		t.Errorf("merge with arguments: %v", err)
	}
	if got := OverrideRefusal(true); !strings.Contains(got, "only `resume` lifts it") {
		t.Errorf("override under HOLD = %q, want a refusal", got)
	}
	if got := OverrideRefusal(false); got != "" {
		t.Errorf("override without HOLD = %q, want none", got)
	}
	checks := OverridableChecks()
	checks[0] = "changed"
	if OverridableChecks()[0] == "changed" {
		t.Error("OverridableChecks hands out its own slice")
	}
}

// TestParseOverrideAndWaive: Parse reads override's check and reason and
// waive's reason by ParseOverrideArgs' and CheckWaiveReason's rules.
func TestParseOverrideAndWaive(t *testing.T) {
	type got struct {
		Verb, Check, Reason string
		Err                 string
	}
	tests := []struct {
		name, body string
		want       got
	}{
		{"override", "/aep override aepgate/audit production is down now", got{VerbOverride, "aepgate/audit", "production is down now", ""}},
		{"override without a reason", "/aep override aepgate/audit", got{VerbOverride, "aepgate/audit", "", "override needs a reason of at least 3 words"}},
		{"override of the HOLD", "/aep override hold the release is late anyway", got{VerbOverride, "hold", "the release is late anyway", "lifted only by `resume`"}},
		{"override of the readback", "/aep override aepgate/readback main is fine trust me", got{VerbOverride, "aepgate/readback", "main is fine trust me", "cannot be overridden"}},
		{"waive", "/aep waive the hotfix was reverted the next day", got{VerbWaive, "", "the hotfix was reverted the next day", ""}},
		{"waive without a reason", "/aep waive ok", got{VerbWaive, "", "ok", "waive needs a reason of at least 3 words"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := Parse(tt.body, "")
			if len(cs) != 1 {
				t.Fatalf("Parse(%q) = %+v, want one command", tt.body, cs)
			}
			c := cs[0]
			g := got{c.Verb, c.Check, c.Reason, ""}
			if c.Err != nil {
				g.Err = tt.want.Err
				if tt.want.Err == "" || !strings.Contains(c.Err.Error(), tt.want.Err) {
					g.Err = c.Err.Error()
				}
			}
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// TestParseMerge: Parse reads "merge" with no arguments; an argument is a
// malformed command naming the valid forms.
func TestParseMerge(t *testing.T) {
	for _, tt := range []struct {
		body    string
		wantErr string
	}{
		{"/aep merge", ""},
		{"/aep merge   ", ""},
		{"/aep merge now please", "merge takes no arguments"},
		{"/aep merge abc1234", "merge takes no arguments"},
	} {
		cs := Parse(tt.body, "")
		if len(cs) != 1 || cs[0].Verb != VerbMerge {
			t.Fatalf("Parse(%q) = %+v, want one merge command", tt.body, cs)
		}
		got := ""
		if cs[0].Err != nil {
			got = cs[0].Err.Error()
		}
		if (tt.wantErr == "") != (got == "") || !strings.Contains(got, tt.wantErr) {
			t.Errorf("Parse(%q).Err = %q, want %q", tt.body, got, tt.wantErr)
		}
		if got != "" && !strings.Contains(got, "`/aep merge`") {
			t.Errorf("Parse(%q).Err = %q, want it to name the valid forms", tt.body, got)
		}
	}
}
