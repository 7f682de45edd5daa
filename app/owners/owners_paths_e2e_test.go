package owners_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
)

// anyOwnerDecides is the rule before owners per path: anyone who owns any
// path (or the repository) decides every gate. Injected in place of
// owner-decides, it is the negative control of the per-path rule.
func anyOwnerDecides(a gatelog.Attempt) string {
	owners := a.In.Policy.Owners
	for _, p := range a.In.PullRequests {
		for _, o := range p.ContractOwners {
			owners = append(owners, o...)
		}
	}
	if a.Action != gatelog.ActionResume && a.Action != gatelog.ActionResolve && a.Action != gatelog.ActionApprove || login.In(owners, a.Item.Author) {
		return ""
	}
	return "not an owner"
}

// anyOwnerRules are the default gate rules with owner-decides replaced by
// anyOwnerDecides.
func anyOwnerRules() []gatelog.Rule {
	rules := gatelog.DefaultRules()
	for i := range rules {
		if rules[i].Name == "owner-decides" {
			rules[i].Check = anyOwnerDecides
		}
	}
	return rules
}

// pathOwnersWorld is a gates world whose rules are the App's, or the
// any-owner rules when anyOwner is set, with erin and dana writers.
func pathOwnersWorld(t *testing.T, anyOwner bool, files map[string]string) *appkit.GatesWorld {
	t.Helper()
	g := appkit.NewGatesWorldOpts(t, func(o *app.Options) {
		if anyOwner {
			o.Seams.GateRules = anyOwnerRules()
		}
	})
	g.Repo.Grant("erin", "write")
	g.Repo.Grant("dana", "write")
	g.Repo.Commit("main", "owners per path", files)
	g.Quiet(t)
	return g
}

// TestPathOwnersEachPathNeedsItsOwner: a pull request touching two
// contract paths owned by different people stays blocked after a
// non-owner's approval and after one path owner's, and passes after both.
// With any owner deciding any path (the negative control), erin's approval
// alone passes it.
func TestPathOwnersEachPathNeedsItsOwner(t *testing.T) {
	const cfg = "version: 1\nowners:\n  \"*\": [olivia]\n  api/**: [erin]\n  docs/contract/**: [dana]\ncoordinators: [cody]\ncontract_paths: [\"api/**\", \"docs/contract/**\"]\n"
	for _, tt := range []struct {
		name      string
		anyOwner  bool
		afterBob  string
		afterDana string
	}{
		{"each path's owner approves", false, "action_required", "success"},
		{"negative control: any owner decides any path", true, "success", "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := pathOwnersWorld(t, tt.anyOwner, map[string]string{".github/aepgate.yml": cfg})
			g.PR.Commit("change two contracts", map[string]string{"api/a.go": "package api\n", "docs/contract/c.md": "# c\n"})
			r := g.WaitGates(t, "action_required")
			for _, want := range []string{"| `api/a.go` | @erin |", "| `docs/contract/c.md` | @dana |"} {
				if !strings.Contains(r.Summary, want) {
					t.Errorf("summary lacks %q:\n%s", want, r.Summary)
				}
			}
			if got := g.ApproveAndLook(t, "mallory"); got != "action_required" {
				t.Errorf("after a non-owner's approval aepgate/gates is %s, want action_required", got)
			}
			if got := g.ApproveAndLook(t, "erin"); got != tt.afterBob {
				t.Errorf("after erin's approval aepgate/gates is %s, want %s", got, tt.afterBob)
			}
			if got := g.ApproveAndLook(t, "dana"); got != tt.afterDana {
				t.Errorf("after dana's approval aepgate/gates is %s, want %s", got, tt.afterDana)
			}
		})
	}
}

// TestCodeOwnersOwnerApproves: with owners: {from: CODEOWNERS}, the owner
// CODEOWNERS names for api/ (erin) approves its change, and the repository's
// owner (the "*" line's olivia) cannot approve it for him. With any owner
// deciding any path (the negative control), olivia's approval passes it.
func TestCodeOwnersOwnerApproves(t *testing.T) {
	files := map[string]string{
		".github/aepgate.yml": "version: 1\nowners: {from: CODEOWNERS}\ncoordinators: [cody]\ncontract_paths: [\"api/**\"]\n",
		".github/CODEOWNERS":  "# owners\n* @olivia\n/api/ @erin carol@example.com\n",
	}
	for _, tt := range []struct {
		name        string
		anyOwner    bool
		afterOlivia string
	}{
		{"the path's owner approves", false, "action_required"},
		{"negative control: any owner decides any path", true, "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := pathOwnersWorld(t, tt.anyOwner, files)
			g.PR.Commit("change the api", map[string]string{"api/a.go": "package api\n"})
			r := g.WaitGates(t, "action_required")
			if !strings.Contains(r.Summary, "| `api/a.go` | @erin |") {
				t.Errorf("summary:\n%s", r.Summary)
			}
			if got := g.ApproveAndLook(t, "olivia"); got != tt.afterOlivia {
				t.Errorf("after olivia's approval aepgate/gates is %s, want %s", got, tt.afterOlivia)
			}
			if got := g.ApproveAndLook(t, "erin"); got != "success" {
				t.Errorf("after erin's approval aepgate/gates is %s, want success", got)
			}
		})
	}
}

// TestCodeOwnersHold: with owners from CODEOWNERS, the "*" line's owner
// holds and resumes, and a path owner cannot resume: HOLD and RESUME stay
// with the repository's owners.
func TestCodeOwnersHold(t *testing.T) {
	g := pathOwnersWorld(t, false, map[string]string{
		".github/aepgate.yml": "version: 1\nowners: {from: CODEOWNERS}\ncoordinators: [cody]\n",
		".github/CODEOWNERS":  "* @olivia\n/api/ @erin\n",
	})
	g.Unit.Comment("olivia", "/aep hold waiting for legal")
	g.WaitGates(t, "action_required")
	erin := g.Unit.Comment("erin", "/aep resume")
	g.WaitReaction(t, erin.ID())
	g.Quiet(t)
	if got := g.Gates().Conclusion; got != "action_required" {
		t.Fatalf("after a path owner's RESUME aepgate/gates is %s, want action_required", got)
	}
	g.Unit.Comment("olivia", "/aep resume")
	g.WaitGates(t, "success")
}

// TestCodeOwnersMissingFailsClosed: owners from CODEOWNERS with no such
// file on the default branch judge nobody's authority: aepgate/gates
// fails naming the file missing, and aepgate/config says why.
func TestCodeOwnersMissingFailsClosed(t *testing.T) {
	g := pathOwnersWorld(t, false, map[string]string{".github/aepgate.yml": "version: 1\nowners: {from: CODEOWNERS}\ncoordinators: [cody]\n"})
	r := g.WaitGates(t, "failure")
	if !strings.Contains(r.Summary, "the default branch has none at .github/CODEOWNERS") {
		t.Errorf("summary:\n%s", r.Summary)
	}
	if c := appkit.NewestRunOn(g.Repo, g.PR.Head(), "aepgate/config"); c == nil || !strings.Contains(c.Summary, "CODEOWNERS") {
		t.Errorf("aepgate/config: %+v", c)
	}
}

// TestCodeOwnersReadEconomy: reading the owners from CODEOWNERS costs at
// most one read per evaluation over the same repository with a flat owners
// list (the three locations are one query, and a default-branch commit's
// files are read once).
func TestCodeOwnersReadEconomy(t *testing.T) {
	flat := pathOwnersWorld(t, false, map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\ncoordinators: [cody]\n"})
	coded := pathOwnersWorld(t, false, map[string]string{
		".github/aepgate.yml": "version: 1\nowners: {from: CODEOWNERS}\ncoordinators: [cody]\n",
		".github/CODEOWNERS":  "* @olivia\n/api/ @erin\n",
	})
	base, got := flat.ReadsOfOneEvaluation(t), coded.ReadsOfOneEvaluation(t)
	t.Logf("reads of one evaluation: flat owners %d, owners from CODEOWNERS %d", base, got)
	if got > base+1 {
		t.Errorf("owners from CODEOWNERS cost %d reads, the flat list %d: more than one read more", got, base)
	}
}
