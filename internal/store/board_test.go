package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestBoardSaveLoad(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	if _, ok, err := db.LoadBoard(ctx, "acme/app"); err != nil || ok {
		t.Fatalf("LoadBoard before saving = %v, %v; want false, nil", ok, err)
	}
	for _, b := range []string{`{"v":1}`, `{"v":2}`} {
		if err := db.SaveBoard(ctx, "acme/app", []byte(b), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	got, ok, err := db.LoadBoard(ctx, "acme/app")
	if err != nil || !ok {
		t.Fatalf("LoadBoard = %v, %v", ok, err)
	}
	if string(got) != `{"v":2}` {
		t.Errorf("LoadBoard = %s, want the last saved", got)
	}
	if _, ok, _ := db.LoadBoard(ctx, "acme/other"); ok {
		t.Error("another repository's board was found")
	}
}

func TestBoardFacts(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	steps := []struct {
		pr          int
		fact        string
		wantChanged bool
	}{
		{1, `a`, true},
		{1, `a`, false},
		{2, `b`, true},
		{1, `c`, true},
	}
	for _, s := range steps {
		changed, err := db.SaveBoardFact(ctx, "acme/app", s.pr, []byte(s.fact), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if changed != s.wantChanged {
			t.Errorf("SaveBoardFact(%d, %q) changed = %v, want %v", s.pr, s.fact, changed, s.wantChanged)
		}
	}
	got, err := db.BoardFacts(ctx, "acme/app")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]byte{1: []byte("c"), 2: []byte("b")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BoardFacts (-want +got):\n%s", diff)
	}
}
