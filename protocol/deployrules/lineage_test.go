package deployrules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/config"
)

var (
	shaB = strings.Repeat("b", 40) // the last approved deployment
	shaU = strings.Repeat("e", 40) // pushed to main without a unit
	shaM = strings.Repeat("d", 40) // another certified merge
	shaW = strings.Repeat("f", 40) // a commit of a merged pull request's branch
)

// chain is a comparison from shaB whose commits are given oldest first,
// each with its parents.
func chain(status string, commits ...Commit) Comparison {
	return Comparison{Status: status, Total: len(commits), Commits: commits}
}

func lineageFacts(l *Lineage) Facts {
	f := facts(cfg(config.RequireCertified, false), true)
	f.Lineage = l
	return f
}

func TestDescends(t *testing.T) {
	certified := map[string]bool{shaB: true, shaM: true, sha: true}
	tests := []struct {
		name    string
		lineage *Lineage
		want    string // "" approved, else a part of the rejection
	}{
		{"first deployment of the environment", &Lineage{Certified: certified}, ""},
		{"not read", nil, ""},
		{"redeploy of the same commit", &Lineage{Base: sha, Since: chain("identical"), Certified: certified}, ""},
		{"rollback into the deployed line", &Lineage{Base: shaB, Since: chain("behind"), Certified: certified}, ""},
		{"directly on the last deployment", &Lineage{Base: shaB, Since: chain("ahead", Commit{sha, []string{shaB, shaW}}, Commit{shaW, []string{shaB}}), Certified: certified}, ""},
		{"every commit since certified", &Lineage{Base: shaB, Since: chain("ahead", Commit{shaM, []string{shaB}}, Commit{sha, []string{shaM}}), Certified: certified}, ""},
		{"an uncertified commit in between", &Lineage{Base: shaB, Since: chain("ahead", Commit{shaU, []string{shaB}}, Commit{sha, []string{shaU}}), Certified: certified},
			"since bbbbbbbbbbbb, the last commit aepgate approved for production, eeeeeeeeeeee reached the branch without being a certified unit's merge commit"},
		{"diverged from the last deployment", &Lineage{Base: shaB, Since: chain("diverged"), Certified: certified}, `does not descend from bbbbbbbbbbbb`},
		{"more commits than read", &Lineage{Base: shaB, Since: Comparison{Status: "ahead", Total: 300, Commits: []Commit{{sha, []string{shaM}}}}, Certified: certified}, "300 commits lead from bbbbbbbbbbbb"},
		{"the line leaves the comparison", &Lineage{Base: shaB, Since: chain("ahead", Commit{sha, []string{shaU}}), Certified: certified}, "does not reach bbbbbbbbbbbb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DecideWith(req, lineageFacts(tt.lineage), DefaultRules())
			if tt.want == "" {
				if diff := cmp.Diff(Approved, got.State); diff != "" {
					t.Errorf("state (-want +got):\n%s\n%s", diff, got.Reason)
				}
				return
			}
			if got.State != Rejected || got.Rule != "lineage" || !strings.Contains(got.Reason, tt.want) {
				t.Errorf("got %s by %s: %s\nwant rejected by lineage with %q", got.State, got.Rule, got.Reason, tt.want)
			}
		})
	}
}

// TestDescendsNegativeControl: the uncertified commit in between passes
// once the lineage rule is removed (only the deployed commit's own
// certificate is then read).
func TestDescendsNegativeControl(t *testing.T) {
	l := &Lineage{Base: shaB, Since: chain("ahead", Commit{shaU, []string{shaB}}, Commit{sha, []string{shaU}}), Certified: map[string]bool{shaB: true, sha: true}}
	if got := DecideWith(req, lineageFacts(l), DefaultRules()); got.State != Rejected {
		t.Fatalf("with every rule: %s (%s), want rejected", got.State, got.Reason)
	}
	if got := DecideWith(req, lineageFacts(l), without("lineage")); got.State != Approved {
		t.Errorf("negative control: without lineage %s (%s), want approved", got.State, got.Reason)
	}
}

func TestApprovalNamesLineage(t *testing.T) {
	l := &Lineage{Base: shaB, Since: chain("ahead", Commit{sha, []string{shaB}}), Certified: map[string]bool{sha: true}}
	got := DecideWith(req, lineageFacts(l), DefaultRules())
	want := "aepgate approved cccccccccccc for production: the environment requires certified; every commit since bbbbbbbbbbbb, the last commit approved, is a certified unit's merge commit"
	if diff := cmp.Diff(want, got.Reason); diff != "" {
		t.Errorf("reason (-want +got):\n%s", diff)
	}
}
