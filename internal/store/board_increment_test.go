package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestBoardIncrements(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	steps := []struct {
		repo        string
		milestone   int
		fact        string
		wantChanged bool
	}{
		{"acme/app", 1, `building`, true},
		{"acme/app", 1, `building`, false},
		{"acme/app", 2, `integrating`, true},
		{"acme/app", 1, `complete`, true},
		{"acme/other", 1, `accepting`, true},
	}
	for _, s := range steps {
		changed, err := db.SaveBoardIncrement(ctx, s.repo, s.milestone, []byte(s.fact), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if changed != s.wantChanged {
			t.Errorf("SaveBoardIncrement(%s, %d, %q) changed = %v, want %v", s.repo, s.milestone, s.fact, changed, s.wantChanged)
		}
	}
	got, err := db.BoardIncrements(ctx, "acme/app")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]byte{1: []byte("complete"), 2: []byte("integrating")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BoardIncrements (-want +got):\n%s", diff)
	}
}
