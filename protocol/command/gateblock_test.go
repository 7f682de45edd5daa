package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func ptr(s string) *string { return &s }

func TestParseGateBlocks(t *testing.T) {
	full := "Before merging:\n\n```aep-gate\nid: Ship Docs!\nquestion: Publish the docs site?\nchoices: [approve, reject, approve, \" hold \"]\ncategory: high-blast-radius-public-release\neffect: publish-release\nscope: merge\nsafe_default: reject\ndecision_key: docs-site\n```\n"
	tests := []struct {
		name string
		body string
		want []GateSpec
	}{
		{"all fields", full, []GateSpec{{Line: 3, ID: "Ship-Docs", Question: "Publish the docs site?", Choices: []string{"approve", "reject", "hold"},
			Category: "high-blast-radius-public-release", Effect: "publish-release", Scope: "merge", SafeDefault: "reject", DecisionKey: ptr("docs-site")}}},
		{"defaults", "~~~ aep-gate\nquestion: Deploy?\nchoices:\n  - yes\n  - no\ncategory: irreversible-destructive\neffect: deploy\n~~~", []GateSpec{{Line: 1, Question: "Deploy?",
			Choices: []string{"yes", "no"}, Category: "irreversible-destructive", Effect: "deploy", Scope: "work-unit"}}},
		{"two blocks", "```aep-gate\nquestion: A?\nchoices: [a, b]\ncategory: explicit-hold\neffect: deploy\n```\n```aep-gate\nquestion: B?\nchoices: [c, d]\ncategory: explicit-hold\neffect: deploy\n```", []GateSpec{
			{Line: 1, Question: "A?", Choices: []string{"a", "b"}, Category: "explicit-hold", Effect: "deploy", Scope: "work-unit"},
			{Line: 7, Question: "B?", Choices: []string{"c", "d"}, Category: "explicit-hold", Effect: "deploy", Scope: "work-unit"}}},
		{"indented fence content", "  ```aep-gate\n  question: A?\n  choices: [a, b]\n  category: explicit-hold\n  effect: deploy\n  ```", []GateSpec{
			{Line: 1, Question: "A?", Choices: []string{"a", "b"}, Category: "explicit-hold", Effect: "deploy", Scope: "work-unit"}}},
		{"quoted block is not a request", "> ```aep-gate\n> question: A?\n> choices: [a, b]\n> category: explicit-hold\n> effect: deploy\n> ```", nil},
		{"other info string", "```yaml\nquestion: A?\n```", nil},
		{"block inside a longer fence", "````md\n```aep-gate\nquestion: A?\nchoices: [a, b]\ncategory: explicit-hold\neffect: deploy\n```\n````", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := ParseGateBlocks(tt.body)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseGateBlocksErrors(t *testing.T) {
	block := func(yaml string) string { return "intro\n```aep-gate\n" + yaml + "\n```\n" }
	valid := "question: Q?\nchoices: [a, b]\ncategory: explicit-hold\neffect: deploy"
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"unknown key", block(valid + "\nowner: alice"), []string{`line 7: "owner": is not a field of an aep-gate block (expected question, choices, category, effect, id, scope, safe_default, decision_key)`}},
		{"repeated key", block(valid + "\nquestion: again"), []string{`line 7: "question": appears twice`}},
		{"missing required", block("question: Q?"), []string{
			"line 2: choices: is required", "line 2: category: is required", "line 2: effect: is required"}},
		{"one choice", block("question: Q?\nchoices: [a, a]\ncategory: explicit-hold\neffect: deploy"), []string{`line 4: choices: must offer at least two different choices (saw "a")`}},
		{"choices not a list", block("question: Q?\nchoices: a|b\ncategory: explicit-hold\neffect: deploy"), []string{"line 4: choices: must be a list such as [approve, reject]"}},
		{"choice with a space", block("question: Q?\nchoices: [ship it, no]\ncategory: explicit-hold\neffect: deploy"), []string{`line 4: choices[0]: "ship it" must be one word, so that the owner can type it after the gate id`}},
		{"refused effect", block("question: Q?\nchoices: [a, b]\ncategory: explicit-hold\neffect: local-repair"), []string{"line 6: effect: externalEffect local-repair is not an external effect: do it on your own authority"}},
		{"unknown effect", block("question: Q?\nchoices: [a, b]\ncategory: explicit-hold\neffect: money"), []string{"line 6: effect: externalEffect money is not an external effect, so you do not need a gate (expected one of deploy, irreversible-data-change, legal-or-rights-decision, merge-protected-branch, physical-or-remote-access, product-direction-decision, publish-release, spend-money-or-entitlement, use-credential)"}},
		{"unknown category", block("question: Q?\nchoices: [a, b]\ncategory: vibes\neffect: deploy"), []string{`line 5: category: must be one of conflicting-direct-owner-priorities, explicit-hold, high-blast-radius-public-release, human-product-judgment-action, irreversible-destructive, legal-privacy-security-exception, money-entitlements, secrets-credentials (got "vibes")`}},
		{"unknown scope", block(valid + "\nscope: release"), []string{`line 7: scope: must be one of close, credential, deploy, implement, irreversible, merge, project, spawn, spend, work-unit (got "release")`}},
		{"safe default not a choice", block(valid + "\nsafe_default: HOLD"), []string{`line 7: safe_default: "HOLD" is not one of the choices ("a", "b")`}},
		{"id cleans to nothing", block(valid + "\nid: '!!!'"), []string{`line 7: id: "!!!": id is empty after cleaning`}},
		{"question not text", block("question: [a]\nchoices: [a, b]\ncategory: explicit-hold\neffect: deploy"), []string{"line 3: question: must be text"}},
		{"null question", block("question:\nchoices: [a, b]\ncategory: explicit-hold\neffect: deploy"), []string{"line 3: question: must be text"}},
		{"not a mapping", block("- a\n- b"), []string{"line 3: an aep-gate block must be a YAML mapping of fields"}},
		{"empty", block(""), []string{"line 2: the aep-gate block is empty"}},
		{"bad yaml", block("question: [unclosed\nchoices: x"), []string{"line 3: not valid YAML: did not find expected ',' or ']'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			specs, errs := ParseGateBlocks(tt.body)
			if len(specs) != 0 {
				t.Errorf("specs = %+v; want none", specs)
			}
			got := []string{}
			for _, e := range errs {
				got = append(got, e.Error())
				if be, ok := e.(*BlockError); !ok || be.Block != 2 {
					t.Errorf("error %v is not a *BlockError of the block at line 2", e)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
