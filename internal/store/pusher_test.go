package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pusherSteps records pushes and reads them back: a repeated push changes
// nothing (the first time is kept), SHAs match without case, other
// repositories and SHAs stay out, a push recorded without a time reads
// back with none.
func pusherSteps(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	at := func(m int) time.Time { return time.Date(2026, 12, 1, 10, m, 0, 0, time.UTC) }
	for _, p := range []struct {
		repo, sha, login string
		at               time.Time
	}{
		{"acme/app", a, "bob", at(1)}, {"acme/app", a, "bob", at(2)}, {"acme/app", strings.ToUpper(b), "Mallory", time.Time{}},
		{"acme/app", b, "bob", at(3)}, {"acme/other", c, "eve", at(4)}, {"acme/app", c, "zed", at(5)},
	} {
		if err := db.RecordPusher(ctx, p.repo, p.sha, p.login, p.at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Pushers(ctx, "acme/app", []string{a, strings.ToUpper(b), strings.Repeat("d", 40)})
	if err != nil {
		t.Fatal(err)
	}
	want := []Pusher{{a, "bob", at(1)}, {b, "Mallory", time.Time{}}, {b, "bob", at(3)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pushers (-want +got):\n%s", diff)
	}
	if got, err := db.Pushers(ctx, "acme/app", nil); err != nil || got != nil {
		t.Errorf("Pushers of no SHAs = %v, %v", got, err)
	}
}

func TestPushers(t *testing.T) { pusherSteps(t, openTemp(t)) }

func TestPostgresPushers(t *testing.T) { pusherSteps(t, openPG(t)) }
