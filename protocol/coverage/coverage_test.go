package coverage

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sha(c string) string { return strings.Repeat(c, 40) }

// observed is a replay onto a moved base that gave the shipped tree.
func observed() Observation {
	return Observation{
		AuditedHead: sha("a"), AuditBase: sha("b"), Shipped: sha("c"), ShippedParents: []string{sha("d")}, Onto: sha("d"),
		AuditedTree: sha("1"), ShippedTree: sha("2"), ReplayBases: []string{sha("b")}, ReplayTree: sha("2"),
	}
}

func TestClassify(t *testing.T) {
	content := Conflict{Type: "CONFLICT (contents)", Paths: []string{"f.txt"}, Message: "CONFLICT (content): Merge conflict in f.txt"}
	tests := []struct {
		name   string
		edit   func(o *Observation)
		class  Class
		paths  []string
		reason string
	}{
		{"replay", func(o *Observation) {}, Replay, nil, ""},
		{"identity", func(o *Observation) { o.ShippedTree = o.AuditedTree }, Identity, nil, ""},
		{"identity needs no replay", func(o *Observation) { o.ShippedTree, o.ReplayBases, o.ReplayTree = o.AuditedTree, nil, "" }, Identity, nil, ""},
		{"residual edit", func(o *Observation) {
			o.ShippedTree = sha("3")
			o.Differences = []PathDiff{{Path: "x.sh", Status: "A", Hunks: "@@ -0,0 +1 @@\n+evil\n"}}
		}, Residual, []string{"x.sh"}, "content no audit covers"},
		{"conflict resolution", func(o *Observation) {
			o.ShippedTree, o.ReplayTree, o.Conflicts = sha("3"), sha("4"), []Conflict{content}
			o.Differences = []PathDiff{{Path: "f.txt", Status: "M"}}
		}, Residual, []string{"f.txt"}, "conflict resolution in f.txt"},
		{"conflict markers shipped", func(o *Observation) { o.Conflicts = []Conflict{content} }, Residual, []string{"f.txt"}, "conflict resolution in f.txt"},
		{"conflict git could not write", func(o *Observation) {
			o.ShippedTree, o.Conflicts = sha("3"), []Conflict{{Type: "CONFLICT (modify/delete)", Paths: []string{"g"}, Message: "g deleted"}}
		}, Unverifiable, nil, "git could not replay g"},
		{"trees differ, nothing listed", func(o *Observation) { o.ShippedTree = sha("3") }, Unverifiable, nil, "no path was listed"},
		{"problem", func(o *Observation) { o.Problem = "missing object" }, Unverifiable, nil, "missing object"},
		{"other merge base", func(o *Observation) { o.ReplayBases = []string{sha("e")} }, Unverifiable, nil, "not the audit's base"},
		{"criss-cross bases", func(o *Observation) { o.ReplayBases = []string{sha("b"), sha("e")} }, Unverifiable, nil, "not the audit's base"},
		{"no replay tree", func(o *Observation) { o.ReplayTree = "" }, Unverifiable, nil, "no replay tree"},
		{"malformed name", func(o *Observation) { o.Shipped = "-x" }, Unverifiable, nil, "not 40 hex"},
		{"uppercase name", func(o *Observation) { o.AuditedTree = strings.ToUpper(sha("a")) }, Unverifiable, nil, "not 40 hex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := observed()
			tt.edit(&o)
			got := Classify(o)
			if got.Class != tt.class || !strings.Contains(got.Reason, tt.reason) {
				t.Fatalf("Classify = %s %q, want %s containing %q", got.Class, got.Reason, tt.class, tt.reason)
			}
			if diff := cmp.Diff(tt.paths, got.ResidualPaths(), cmp.Comparer(func(a, b []string) bool { return len(a)+len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Errorf("residual (-want +got):\n%s", diff)
			}
			if got.Class.Covered() != (tt.class == Identity || tt.class == Replay) {
				t.Errorf("Covered = %v for %s", got.Class.Covered(), got.Class)
			}
		})
	}
}

func TestStrictMerge(t *testing.T) {
	o := observed()
	o.AuditedContainsOnto = true
	m := StrictMerge(o, Result{Class: Replay})
	if m.Coverage == nil || !m.Coverage.Covered || m.Coverage.Class != "replay" || m.Coverage.Refusal != nil {
		t.Fatalf("StrictMerge coverage = %+v", m.Coverage)
	}
	if m.AuditedSha != o.AuditedHead || m.MergeSha != o.Shipped || m.MergeTree != o.ShippedTree || m.AuditedTree != o.AuditedTree || !m.AuditedContainsBase || !cmp.Equal(m.Parents, o.ShippedParents) || m.Method != "" {
		t.Fatalf("StrictMerge = %+v from %+v", m, o)
	}
}

func TestParseMergeTree(t *testing.T) {
	tree := sha("d")
	tests := []struct {
		name  string
		out   string
		clean bool
		want  MergeTree
		err   bool
	}{
		{"clean", tree + "\x00", true, MergeTree{Tree: tree}, false},
		{"conflicts", tree + "\x00bin\x00f\x00\x001\x00bin\x00CONFLICT (modify/delete)\x00bin deleted\n\x001\x00f\x00Auto-merging\x00Auto-merging f\n\x001\x00f\x00CONFLICT (contents)\x00CONFLICT (content): Merge conflict in f\n\x00", false,
			MergeTree{Tree: tree, Conflicted: []string{"bin", "f"}, Conflicts: []Conflict{
				{Type: "CONFLICT (modify/delete)", Paths: []string{"bin"}, Message: "bin deleted"},
				{Type: "CONFLICT (contents)", Paths: []string{"f"}, Message: "CONFLICT (content): Merge conflict in f"},
			}}, false},
		{"two paths in a message", tree + "\x00a\x00\x002\x00a\x00b\x00CONFLICT (rename/rename)\x00r\x00", false,
			MergeTree{Tree: tree, Conflicted: []string{"a"}, Conflicts: []Conflict{{Type: "CONFLICT (rename/rename)", Paths: []string{"a", "b"}, Message: "r"}}}, false},
		{"conflicted paths without a message", tree + "\x00a\x00\x00", false,
			MergeTree{Tree: tree, Conflicted: []string{"a"}, Conflicts: []Conflict{{Type: "CONFLICT (unreported)", Paths: []string{"a"}, Message: "git listed conflicted paths without a conflict message"}}}, false},
		{"clean with more", tree + "\x00x\x00", true, MergeTree{}, true},
		{"conflict with nothing", tree + "\x00\x00", false, MergeTree{}, true},
		{"no terminator", tree, true, MergeTree{}, true},
		{"bad tree", "HEAD\x00", true, MergeTree{}, true},
		{"bad count", tree + "\x00a\x00\x00x\x00a\x00T\x00m\x00", false, MergeTree{}, true},
		{"count past the end", tree + "\x00a\x00\x005\x00a\x00T\x00m\x00", false, MergeTree{}, true},
		{"unterminated paths", tree + "\x00a\x00", false, MergeTree{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMergeTree([]byte(tt.out), tt.clean)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseMergeTree (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseMergeTree: any output is read or refused, never a panic; what
// is read has a valid tree, and a conflicted merge has a conflict.
func FuzzParseMergeTree(f *testing.F) {
	tree := sha("d")
	f.Add([]byte(tree+"\x00"), true)
	f.Add([]byte(tree+"\x00f\x00\x001\x00f\x00CONFLICT (contents)\x00m\x00"), false)
	f.Add([]byte(tree+"\x00\x002\x00a\x00b\x00CONFLICT (rename/rename)\x00r\x00"), false)
	f.Fuzz(func(t *testing.T, out []byte, clean bool) {
		got, err := ParseMergeTree(out, clean)
		if err != nil {
			return
		}
		if !ValidSHA(got.Tree) {
			t.Fatalf("tree %q accepted", got.Tree)
		}
		if !clean && len(got.Conflicts) == 0 {
			t.Fatal("a conflicted merge read without a conflict")
		}
		if clean && (len(got.Conflicts) != 0 || len(got.Conflicted) != 0) {
			t.Fatal("a clean merge read with conflicts")
		}
	})
}

func TestRefusal(t *testing.T) {
	residual := Result{Class: Residual, Reason: "content no audit covers", Residual: []PathDiff{{Path: "a"}, {Path: "b"}}}
	tests := []struct {
		r     Result
		token string
		seen  string
	}{
		{Result{Class: Identity}, "", ""},
		{Result{Class: Replay}, "", ""},
		{residual, TokenResidual, "content no audit covers: a, b"},
		{Result{Class: Unverifiable, Reason: "missing"}, TokenUnverifiable, "missing"},
		{Result{Class: "made-up"}, TokenUnverifiable, "(empty)"},
		{Result{}, TokenUnverifiable, "(empty)"},
	}
	for _, tt := range tests {
		got := Refusal(tt.r)
		if tt.token == "" {
			if got != nil {
				t.Errorf("Refusal(%s) = %v, want none", tt.r.Class, got)
			}
			continue
		}
		if got == nil || got.Token != tt.token || got.Seen != tt.seen {
			t.Errorf("Refusal(%s) = %v, want %s seeing %q", tt.r.Class, got, tt.token, tt.seen)
		}
	}
}
