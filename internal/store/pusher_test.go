package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pusherSteps records pushes and reads them back: a repeated push changes
// nothing, SHAs match without case, other repositories and SHAs stay out.
func pusherSteps(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	for _, p := range []struct{ repo, sha, login string }{
		{"acme/app", a, "bob"}, {"acme/app", a, "bob"}, {"acme/app", strings.ToUpper(b), "Mallory"},
		{"acme/app", b, "bob"}, {"acme/other", c, "eve"}, {"acme/app", c, "zed"},
	} {
		if err := db.RecordPusher(ctx, p.repo, p.sha, p.login, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Pushers(ctx, "acme/app", []string{a, strings.ToUpper(b), strings.Repeat("d", 40)})
	if err != nil {
		t.Fatal(err)
	}
	want := []Pusher{{a, "bob"}, {b, "Mallory"}, {b, "bob"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pushers (-want +got):\n%s", diff)
	}
	if got, err := db.Pushers(ctx, "acme/app", nil); err != nil || got != nil {
		t.Errorf("Pushers of no SHAs = %v, %v", got, err)
	}
}

func TestPushers(t *testing.T) { pusherSteps(t, openTemp(t)) }

func TestPostgresPushers(t *testing.T) { pusherSteps(t, openPG(t)) }
