package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestClosureRows(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	e := Entry{Kind: "closure", Subject: "o/r#2"}
	if err := db.SaveClosure(ctx, "o/r", 2, []byte(`{"a":1}`), e, now); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveClosure(ctx, "o/r", 2, []byte(`{"a":2}`), e, now); err != nil {
		t.Fatal(err)
	}
	got, err := db.Closures(ctx, "o/r")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int][]byte{2: []byte(`{"a":2}`)}, got); diff != "" {
		t.Errorf("closures (-want +got):\n%s", diff)
	}
	var marks []bool
	for _, key := range []string{"k1", "k1", "k2"} {
		fresh, err := db.MarkClosureCommented(ctx, "o/r", 2, key)
		if err != nil {
			t.Fatal(err)
		}
		marks = append(marks, fresh)
	}
	if diff := cmp.Diff([]bool{true, false, true}, marks); diff != "" {
		t.Errorf("comment marks (-want +got):\n%s", diff)
	}
	for _, pr := range []int{5, 4, 5} {
		if err := db.SaveUnitEvidence(ctx, "o/r", 2, pr, []byte(fmt.Sprintf(`{"pr":%d}`, pr)), now); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := db.UnitEvidence(ctx, "o/r")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int][][]byte{2: {[]byte(`{"pr":4}`), []byte(`{"pr":5}`)}}, ev); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
}
