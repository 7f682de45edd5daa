package config

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const baseName = "acme/.github:aepgate.yml"

// resolveText parses both files and resolves repo over base.
func resolveText(t *testing.T, base, repo string, rules []MergeRule) (*Resolved, error) {
	t.Helper()
	r, err := ParseFile(".github/aepgate.yml", []byte(repo))
	if err != nil {
		t.Fatalf("repository file: %v", err)
	}
	var b *File
	if base != "" {
		if b, err = ParseFile(baseName, []byte(base)); err != nil {
			t.Fatalf("base file: %v", err)
		}
	}
	return Resolve(r, b, rules)
}

// without is rules minus the rule of key: a negative control.
func without(rules []MergeRule, key string) []MergeRule {
	return slices.DeleteFunc(slices.Clone(rules), func(r MergeRule) bool { return r.Key == key })
}

// shown is the resolved value and source of each key in keys.
func shown(r *Resolved, keys ...string) map[string]string {
	out := map[string]string{}
	for _, l := range r.Lines(DefaultMergeRules()) {
		if slices.Contains(keys, l.Key) {
			out[l.Key] = l.Value + " # " + string(l.Source)
		}
	}
	return out
}

const ext = "version: 1\nextends: " + baseName + "\n"

func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		name       string
		base, repo string
		rules      []MergeRule // nil: DefaultMergeRules
		want       map[string]string
		wantErr    string
	}{
		{name: "owners unioned", base: "version: 1\nowners: [olivia]\n", repo: ext + "owners: [Olivia, rob]\n",
			want: map[string]string{"owners": `["olivia","rob"] # base + repository`}},
		{name: "owners inherited", base: "version: 1\nowners: [olivia]\n", repo: ext + "coordinators: [cody]\n",
			want: map[string]string{"owners": `["olivia"] # base`, "coordinators": `["cody"] # repository`}},
		{name: "dropping owners refused", base: "version: 1\nowners: [olivia, \"@acme/leads\"]\n", repo: ext + "owners: []\n",
			wantErr: ".github/aepgate.yml:3:1: owners: [] would drop the inherited [olivia, @acme/leads] of acme/.github:aepgate.yml"},
		{name: "negative control: without the owners rule the repository drops them", base: "version: 1\nowners: [olivia]\n", repo: ext + "owners: []\n",
			rules: without(DefaultMergeRules(), "owners"), want: map[string]string{"owners": "[]"}},
		{name: "negative control: without the owners rule a different set replaces them", base: "version: 1\nowners: [olivia]\n", repo: ext + "owners: [rob]\n",
			rules: without(DefaultMergeRules(), "owners"), want: map[string]string{"owners": `["rob"]`}},
		{name: "workflows and contract paths unioned", base: "version: 1\nrequired_workflows: {pull_request: [ci]}\ncontract_paths: [\"api/**\"]\n",
			repo: ext + "required_workflows: {pull_request: [lint]}\ncontract_paths: [\"docs/**\"]\n",
			want: map[string]string{"required_workflows.pull_request": `["ci","lint"] # base + repository`, "contract_paths": `["api/**","docs/**"] # base + repository`, "required_workflows.readback": "[] # default"}},
		{name: "default contract paths: dropping an inherited one refused", base: "version: 1\n", repo: ext + "default_contract_paths: [/CODEOWNERS]\n",
			wantErr: `default_contract_paths: leaving out ".github/CODEOWNERS" would drop it`},
		{name: "default contract paths: [] refused under a base that keeps them", base: "version: 1\n", repo: ext + "default_contract_paths: []\n",
			wantErr: `default_contract_paths: leaving out`},
		{name: "default contract paths: a repository takes back one the base opted out", base: "version: 1\ndefault_contract_paths: [/CODEOWNERS]\n", repo: ext + "default_contract_paths: [/CODEOWNERS, \"**/AGENTS.md\"]\n",
			want: map[string]string{"default_contract_paths": `["/CODEOWNERS","**/AGENTS.md"] # base + repository`}},
		{name: "negative control: without the default_contract_paths rule the repository drops them", base: "version: 1\n", repo: ext + "default_contract_paths: []\n",
			rules: without(DefaultMergeRules(), "default_contract_paths"), want: map[string]string{"default_contract_paths": "[]"}},
		{name: "limits take the stricter value", base: "version: 1\nlimits: {corrections: 2, exchanges: 2}\nreadback: {timeout: 1h}\n",
			repo: ext + "limits: {corrections: 5, exchanges: 1}\nreadback: {timeout: 2h}\n",
			want: map[string]string{"limits.corrections": "2 # base", "limits.exchanges": "1 # repository", "readback.timeout": "1h0m0s # base", "limits.attempts_per_unit": "1 # default"}},
		{name: "negative control: without the limits rule the repository loosens it", base: "version: 1\nlimits: {corrections: 2}\n", repo: ext + "limits: {corrections: 5}\n",
			rules: without(DefaultMergeRules(), "limits.corrections"), want: map[string]string{"limits.corrections": "5"}},
		{name: "a limit the repository leaves out is the base's", base: "version: 1\nlimits: {corrections: 3}\n", repo: ext,
			want: map[string]string{"limits.corrections": "3 # base"}},
		{name: "advisory cannot loosen an enforcing base", base: "version: 1\n", repo: ext + "mode: advisory\n",
			want: map[string]string{"mode": `"enforce" # default`}},
		{name: "enforce tightens an advisory base", base: "version: 1\nmode: advisory\n", repo: ext + "mode: enforce\n",
			want: map[string]string{"mode": `"enforce" # repository`}},
		{name: "risk takes the higher tier", base: "version: 1\nrisk: {default: high}\n", repo: ext + "risk: {default: low}\n",
			want: map[string]string{"risk.default": `"high" # base`}},
		{name: "auditors narrowed", base: "version: 1\nauditors: [ann, ben]\n", repo: ext + "auditors: [ben]\n",
			want: map[string]string{"auditors": `["ben"] # repository`}},
		{name: "adding an auditor refused", base: "version: 1\nauditors: [ann]\n", repo: ext + "auditors: [ann, eve]\n",
			wantErr: `auditors: "eve" is not in the inherited [ann] of acme/.github:aepgate.yml`},
		{name: "auditors [] refused", base: "version: 1\nauditors: [ann]\n", repo: ext + "auditors: []\n",
			wantErr: "auditors: [] would let anyone in"},
		{name: "auditors narrow an unrestricted base", base: "version: 1\n", repo: ext + "auditors: [eve]\n",
			want: map[string]string{"auditors": `["eve"] # repository`}},
		{name: "adding a report exemption refused", base: "version: 1\n", repo: ext + "report: {skip: {authors: [eve]}}\n",
			wantErr: "report.skip.authors: the base acme/.github:aepgate.yml lists none; a repository may not add [eve]"},
		{name: "audit_triage cannot be switched on", base: "version: 1\n", repo: ext + "audit_triage: true\n",
			want: map[string]string{"audit_triage": "false # default"}},
		{name: "closure.reopen can be switched on", base: "version: 1\n", repo: ext + "closure: {reopen: true}\n",
			want: map[string]string{"closure.reopen": "true # repository"}},
		{name: "closure.final owner wins over certified", base: "version: 1\n", repo: ext + "closure: {final: owner}\n",
			want: map[string]string{"closure.final": `"owner" # repository`}},
		{name: "closure.final certified does not loosen an owner base", base: "version: 1\nclosure: {final: owner}\n", repo: ext + "closure: {final: certified}\n",
			want: map[string]string{"closure.final": `"owner" # base`}},
		{name: "command prefix is the base's", base: "version: 1\n", repo: ext + "command_prefix: /x\n",
			wantErr: `command_prefix: "/x" differs from the inherited "/aep"`},
		{name: "manifest is the repository's", base: "version: 1\n", repo: ext + "release: {manifest: dist/m.sha256}\n",
			want: map[string]string{"release.manifest": `"dist/m.sha256" # repository`}},
		{name: "controls unioned", base: "version: 1\nnegative_controls: [{name: a, break: x, restore: y, test: z}]\n",
			repo: ext + "negative_controls: [{name: b, break: x, restore: y, test: z}]\n",
			want: map[string]string{"negative_controls": `["a","b"] # base + repository`}},
		{name: "redefining a control refused", base: "version: 1\nnegative_controls: [{name: a, break: x, restore: y, test: z}]\n",
			repo: ext + "negative_controls: [{name: a, break: x, restore: y, test: other}]\n", wantErr: `"a" is a control of the base`},
		{name: "environments tightened", base: "version: 1\ndeploy: {environments: {prod: {require: none}}}\n",
			repo: ext + "deploy: {environments: {prod: {require: certified, owner_gate: true}}}\n",
			want: map[string]string{"deploy.environments": `{"prod":{"require":"certified","owner_gate":true}} # base + repository`}},
		{name: "adding an environment refused", base: "version: 1\ndeploy: {environments: {prod: {require: certified}}}\n",
			repo: ext + "deploy: {environments: {dev: {require: none}}}\n", wantErr: `environment "dev" is not in the base`},
		{name: "stall bounds checked after the merge", base: "version: 1\nstall: {suspect_after: 25m, stalled_after: 40m}\n",
			repo: ext + "stall: {stalled_after: 20m}\n", wantErr: "stall: merged with the base"},
		{name: "a base that extends is refused", base: "version: 1\nextends: acme/other:aepgate.yml\n", repo: ext,
			wantErr: "acme/.github:aepgate.yml:2:1: extends: the base policy itself extends acme/other:aepgate.yml; only one level"},
		{name: "a file without extends is its own", repo: "version: 1\nowners: [rob]\n",
			want: map[string]string{"owners": `["rob"] # repository`, "mode": `"enforce" # default`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rules := tt.rules
			if rules == nil {
				rules = DefaultMergeRules()
			}
			r, err := resolveText(t, tt.base, tt.repo, rules)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Resolve = %v; want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			keys := make([]string, 0, len(tt.want))
			for k := range tt.want {
				keys = append(keys, k)
			}
			got := shown(r, keys...)
			if tt.rules != nil { // a removed rule records no source: compare values only
				for k, v := range got {
					got[k], _, _ = strings.Cut(v, " # ")
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("resolved (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResolveNeedsBase: a file that extends a base is never resolved alone.
func TestResolveNeedsBase(t *testing.T) {
	_, err := resolveText(t, "", ext+"owners: [rob]\n", DefaultMergeRules())
	if !errors.Is(err, ErrNoBase) {
		t.Fatalf("Resolve without the base = %v, want ErrNoBase", err)
	}
}

// TestMergeRulesCoverEveryKey: every key of Config has exactly one merge
// rule, in the order of Config, so a new key cannot be added without
// deciding how it merges. The negative control drops a rule and checks that
// the comparison notices.
func TestMergeRulesCoverEveryKey(t *testing.T) {
	ruleKeys := func(rules []MergeRule) []string {
		var out []string
		for _, r := range rules {
			out = append(out, r.Key)
		}
		return out
	}
	if diff := cmp.Diff(leafKeys(), ruleKeys(DefaultMergeRules())); diff != "" {
		t.Errorf("Config's keys (-) against DefaultMergeRules' (+):\n%s", diff)
	}
	if cmp.Equal(leafKeys(), ruleKeys(without(DefaultMergeRules(), "owners"))) {
		t.Error("negative control: a missing rule went unnoticed")
	}
	for _, r := range DefaultMergeRules() {
		if r.How == "" || r.merge == nil {
			t.Errorf("rule %s has no How or no merge", r.Key)
		}
	}
}

// TestDocsListEveryMergeRule: docs/config.md's "How each key merges" table
// names every key DefaultMergeRules decides, so a rule cannot change key
// without the docs saying how it merges.
func TestDocsListEveryMergeRule(t *testing.T) {
	doc, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### How each key merges")
	if !ok {
		t.Fatal(`docs/config.md has no "How each key merges" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		if cells := strings.SplitN(line, "|", 3); len(cells) == 3 {
			listed = append(listed, strings.Fields(strings.NewReplacer("`", " ", ",", " ").Replace(cells[1]))...)
		}
	}
	for _, r := range DefaultMergeRules() {
		if !slices.Contains(listed, r.Key) {
			t.Errorf("docs/config.md does not say how %s merges", r.Key)
		}
	}
}

// leafKeys lists the field paths of every leaf of Config (by JSON name; a
// struct is walked into, an embedded one flattened; a list, a map and a
// duration are leaves), the keys a MergeRule decides.
func leafKeys() []string { return keysOf(reflect.TypeFor[Config](), "") }

func keysOf(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case f.Anonymous:
			out = append(out, keysOf(f.Type, prefix)...)
		case f.Type.Kind() == reflect.Struct && f.Type != durationType:
			out = append(out, keysOf(f.Type, prefix+name+".")...)
		default:
			out = append(out, prefix+name)
		}
	}
	return out
}

// durationType is time.Duration's type, shown as a duration, not a number.
var durationType = reflect.TypeFor[time.Duration]()
