package gatelog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pathInput is pull request 21 changing two contract paths, api/a.go owned
// by bob and docs/c.md owned by dana; alice owns the repository.
func pathInput(items ...Item) Input {
	in := input(items...)
	in.PullRequests = []PullRequestState{{Number: 21, Head: headA, HeadAt: at(1),
		ContractFiles:  []string{"api/a.go", "docs/c.md", "main.yml"},
		ContractOwners: map[string][]string{"api/a.go": {"bob"}, "docs/c.md": {"dana"}}}}
	in.Permissions["bob"], in.Permissions["dana"] = "write", "write"
	return in
}

// anyOwnerDecides is OwnerDecides as it was before owners per path: any
// owner, of any path, decides every gate. Injected in place of
// owner-decides, it shows what the per-path rule stops.
func anyOwnerDecides(a Attempt) string {
	if !ownerOnly[a.Action] || listed(a.In.anyOwner(), a.Item.Author) {
		return ""
	}
	return "not an owner"
}

// withRule is DefaultRules with rule name replaced by r.
func withRule(name string, r Rule) []Rule {
	out := DefaultRules()
	for i := range out {
		if out[i].Name == name {
			out[i] = r
		}
	}
	return out
}

// TestContractGatesPerPath: each owner group gets its own gate, which only
// that group's owners answer; the merge waits for every group.
func TestContractGatesPerPath(t *testing.T) {
	id := ContractGateID(21, headA)
	api, docs, repo := id+"-1", id+"-2", id+"-3"
	bob := review(1, "bob", onPR, 2, ReviewApproved, headA, "")
	dana := review(2, "dana", onPR, 3, ReviewApproved, headA, "")
	alice := review(3, "alice", onPR, 4, ReviewApproved, headA, "")
	tests := []struct {
		name  string
		items []Item
		rules []Rule
		want  []string
	}{
		{"nothing approved", nil, nil, []string{"gate-open:" + api, "gate-open:" + docs, "gate-open:" + repo}},
		{"bob approves his path only", []Item{bob}, nil, []string{"gate-open:" + docs, "gate-open:" + repo}},
		{"every owner approves", []Item{bob, dana, alice}, nil, []string{}},
		{"the repository's owner cannot approve bob's path", []Item{alice}, nil, []string{"gate-open:" + api, "gate-open:" + docs}},
		{"dana cannot resolve bob's gate", []Item{comment(4, "dana", onPR, 2, "/aep resolve "+api+" approve")}, nil,
			[]string{"gate-open:" + api, "gate-open:" + docs, "gate-open:" + repo}},
		{"bob's reject keeps his gate blocking", []Item{comment(4, "bob", onPR, 2, "/aep resolve "+api+" reject"), dana, alice}, nil,
			[]string{"gate-answered-safe-default:" + api}},
		// Negative control: with any owner deciding any path, bob's one
		// approval answers every gate.
		{"negative control: any owner decides any path", []Item{bob}, withRule("owner-decides", Rule{"owner-decides", anyOwnerDecides}), []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := tt.rules
			if rules == nil {
				rules = DefaultRules()
			}
			r := BuildWith(pathInput(tt.items...), rules)
			if diff := cmp.Diff(tt.want, tokens(r)); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestContractGatesOneGroup: contract files with the same owners share the
// one gate of old, with its id and question.
func TestContractGatesOneGroup(t *testing.T) {
	in := input()
	in.PullRequests = []PullRequestState{{Number: 21, Head: headA, HeadAt: at(1), ContractFiles: []string{"a", "b"},
		ContractOwners: map[string][]string{"a": {"bob"}, "b": {"Bob"}}}}
	r := Build(in)
	id := ContractGateID(21, headA)
	if diff := cmp.Diff([]string{"gate-open:" + id}, tokens(r)); diff != "" {
		t.Errorf("blockers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{id: {"bob"}}, r.Deciders); diff != "" {
		t.Errorf("deciders (-want +got):\n%s", diff)
	}
	want := "Pull request #21 changes contract paths at aaaaaaaaaaaa: a, b. Approve these changes?"
	if g, _ := findGate(r, id); g != want {
		t.Errorf("question = %q, want %q", g, want)
	}
}

func findGate(r Result, id string) (string, bool) {
	for _, g := range r.State.Gates {
		if g.GateID == id {
			return g.Question, true
		}
	}
	return "", false
}

// TestContractGateSources: a contract gate's question says what each
// source of authority among its files changes, with one owner group and
// with several.
func TestContractGateSources(t *testing.T) {
	head := strings.Repeat("a", 40)
	src := map[string]string{"AGENTS.md": "changes a source of authority: the instructions agents follow"}
	for _, tt := range []struct {
		name   string
		owners map[string][]string
		want   []string
	}{
		{"one group", nil, []string{"Pull request #21 changes contract paths at aaaaaaaaaaaa: AGENTS.md (changes a source of authority: the instructions agents follow), api/x.proto. Approve these changes?"}},
		{"two groups", map[string][]string{"api/x.proto": {"dana"}}, []string{
			"Pull request #21 changes contract paths owned by olivia at aaaaaaaaaaaa: AGENTS.md (changes a source of authority: the instructions agents follow). Approve these changes?",
			"Pull request #21 changes contract paths owned by dana at aaaaaaaaaaaa: api/x.proto. Approve these changes?"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := PullRequestState{Number: 21, Head: head, ContractFiles: []string{"AGENTS.md", "api/x.proto"}, ContractOwners: tt.owners, ContractSources: src}
			var got []string
			for _, g := range contractGates(13, p, []string{"olivia"}) {
				got = append(got, g.ev.Question)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("questions (-want +got):\n%s", diff)
			}
		})
	}
}
