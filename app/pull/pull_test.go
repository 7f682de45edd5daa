package pull

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// closedPulls lists open pull requests and affected units, and snapshots
// every pull request as closed (so a judgement stops after its read),
// recording which it read.
type closedPulls struct {
	open     []gh.OpenPull
	affected map[int]bool
	read     []gh.SnapshotRequest
}

func (s *closedPulls) Snapshot(_ context.Context, req gh.SnapshotRequest) (*snapshot.PR, error) {
	req.Marks = nil
	s.read = append(s.read, req)
	return &snapshot.PR{Pull: &snapshot.Pull{Number: req.PR, State: "CLOSED"}}, nil
}

func (s *closedPulls) OpenPullRequests(context.Context, string, string) ([]gh.OpenPull, error) {
	return s.open, nil
}

func (s *closedPulls) AffectedUnits(context.Context, string, string, int, []int) (map[int]bool, error) {
	return s.affected, nil
}

type keys []string

func (k *keys) Lock(_ context.Context, key string) (func(), error) {
	*k = append(*k, key)
	return func() {}, nil
}

type noKept struct{}

func (noKept) KeptDecisions(context.Context, string) ([]store.Kept, error) { return nil, nil }
func (noKept) ThreadMark(context.Context, string, int) (int64, error)      { return 0, nil }

// TestOpenJudgesWhatTheChangeAffects: Open judges, each under its own
// lock, the open pull requests naming one unit: all of them, or, when an
// issue changed, only those whose unit it affects; a pull request naming
// no unit is never judged.
func TestOpenJudgesWhatTheChangeAffects(t *testing.T) {
	open := []gh.OpenPull{{Number: 1, Body: "Work-unit: #7"}, {Number: 2, Body: "Work-unit: #8"}, {Number: 3, Body: "no unit"}}
	for _, tt := range []struct {
		name  string
		issue int
		want  []int
	}{
		{"every open pull request", 0, []int{1, 2}},
		{"only what issue #8 affects", 8, []int{2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			snap := &closedPulls{open: open, affected: map[int]bool{8: true}}
			var locked keys
			j := &Judge{Checks: verdict.DefaultChecks(), DB: DB{Locks: &locked}, Log: slog.New(slog.DiscardHandler), Reads: Reads{Snap: snap, Kept: noKept{}}}
			if err := j.Open(context.Background(), Input{Owner: "acme", Repo: "widgets", Answer: 99}, tt.issue, nil); err != nil {
				t.Fatal(err)
			}
			var got []int
			var wantLocks []string
			for _, r := range snap.read {
				got = append(got, r.PR)
				if len(r.Guesses) != 1 {
					t.Errorf("#%d read with guesses %v, want its one unit", r.PR, r.Guesses)
				}
			}
			for _, n := range tt.want {
				wantLocks = append(wantLocks, fmt.Sprintf("acme/widgets#%d", n))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("judged (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantLocks, []string(locked)); diff != "" {
				t.Errorf("locks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnique(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{"b", "a", "b", "c", "a"}, []string{"a", "b", "c"}},
	} {
		if diff := cmp.Diff(tt.want, unique(tt.in)); diff != "" {
			t.Errorf("unique(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestAssemble: a bundle holds the files its review cited, as read; a
// binary file or one GitHub would not return whole makes it unreadable,
// and a review citing nothing gets an empty (not a missing) bundle.
func TestAssemble(t *testing.T) {
	const sha = "0123456789abcdef0123456789abcdef01234567"
	files := map[string]gh.BlobFile{
		sha + "\x00log.md": {Path: "log.md", Content: []byte("ran")},
		sha + "\x00bin":    {Path: "bin", Binary: true},
		sha + "\x00big":    {Path: "big", TooLarge: true},
	}
	for _, tt := range []struct {
		name    string
		paths   []string
		want    review.Bundle
		wantErr bool
	}{
		{"read", []string{"log.md", "gone.md"}, review.Bundle{{Path: "log.md", Content: []byte("ran")}, {Path: "gone.md"}}, false},
		{"nothing cited", nil, review.Bundle{}, false},
		{"binary", []string{"log.md", "bin"}, nil, true},
		{"too large", []string{"big"}, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := assemble(verdict.BundleWant{SHA: sha, Paths: tt.paths}, files)
			if (b.Err != "") != tt.wantErr {
				t.Fatalf("err = %q, want an error: %v", b.Err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, b.Files); !tt.wantErr && diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}
