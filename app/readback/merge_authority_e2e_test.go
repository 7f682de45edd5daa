package readback_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/merge"
)

// mergeAuthorityYAML lets the owners, the merge queue and coordinator
// carol merge.
const mergeAuthorityYAML = appkit.ReadbackYAML + "merge:\n  authority: [owners, merge-queue, carol]\n"

// TestMergeWithoutAuthorityWithheldUntilAccepted: with merge.authority
// set, a merge by a collaborator it does not list gets a verified readback
// that says who merged and that they hold no merge authority, and no
// certificate; a non-owner's accept-merge changes nothing; the owner's
// accept-merge of the merge commit releases the certificate, which records
// who merged and who accepted it.
func TestMergeWithoutAuthorityWithheldUntilAccepted(t *testing.T) {
	w := appkit.NewReadbackWorld(t, mergeAuthorityYAML, nil)
	w.Repo.Grant("mallory", "write")
	sha, err := w.PR.MergeBy("mallory", ghfake.MergeCommit)
	if err != nil {
		t.Fatal(err)
	}
	w.MainCI(sha, "success")
	done := w.WaitReadback(t, sha, "success")
	for _, want := range []string{"merge-authority-missing:mallory", "Merged by @mallory, who holds no merge authority", "/aep accept-merge " + sha} {
		if !strings.Contains(done.Summary, want) {
			t.Errorf("readback summary lacks %q:\n%s", want, done.Summary)
		}
	}
	first := w.PR.Comment("mallory", "/aep accept-merge "+sha)
	w.Quiet(t)
	if n := w.Count(sha, checks.NameCertificate); n != 0 || slices.Contains(w.Labels(t), readback.CertifiedLabel) {
		t.Fatalf("%d certificates on a merge without authority (accepted by a non-owner)", n)
	}
	accept := w.PR.Comment("olivia", "Merged by the wrong hand; the change is right.\n/aep accept-merge "+sha)
	c := w.CertificateOn(t, sha)
	want := map[string]any{"mergedBy": "mallory", "authority": merge.AuthorityOwnerAccepted, "acceptedBy": "olivia", "acceptanceCommentId": jsonInt(accept.ID())}
	if got, _ := c["mergeAuthority"].(map[string]any); !mapsEqual(got, want) {
		t.Errorf("mergeAuthority = %v, want %v", c["mergeAuthority"], want)
	}
	appkit.WaitFor(t, 10*time.Second, "readback names the certificate", func() bool {
		return strings.Contains(w.Latest(sha, checks.NameReadback).Summary, "Completion certificate: ")
	})
	if got, _ := w.Repo.CommentByID(accept.ID()); !slices.Equal(got.Reactions, []string{"+1"}) {
		t.Errorf("reactions on the acceptance %v, want [+1]", got.Reactions)
	}
	if got, _ := w.Repo.CommentByID(first.ID()); len(got.Reactions) != 0 {
		t.Errorf("reactions on the non-owner's acceptance %v, want none", got.Reactions)
	}
}

// TestMergeWithAuthorityCertified: a merge by an owner, by the listed
// coordinator and by GitHub's merge queue (listed) each get a certificate
// recording who merged under which authority.
func TestMergeWithAuthorityCertified(t *testing.T) {
	for _, tt := range []struct{ by, mergedBy, authority string }{
		{"olivia", "olivia", merge.AuthorityOwner},
		{"carol", "carol", merge.AuthorityCoordinator},
		{"github-merge-queue[bot]", "github-merge-queue[bot]", merge.AuthorityQueue},
	} {
		t.Run(tt.authority, func(t *testing.T) {
			w := appkit.NewReadbackWorld(t, mergeAuthorityYAML, nil)
			sha, err := w.PR.MergeBy(tt.by, ghfake.MergeCommit)
			if err != nil {
				t.Fatal(err)
			}
			w.MainCI(sha, "success")
			c := w.CertificateOn(t, sha)
			want := map[string]any{"mergedBy": tt.mergedBy, "authority": tt.authority}
			if got, _ := c["mergeAuthority"].(map[string]any); !mapsEqual(got, want) {
				t.Errorf("mergeAuthority = %v, want %v", c["mergeAuthority"], want)
			}
		})
	}
}

// TestMergeAuthorityNegativeControl: with the rule removed (one that holds
// every merge handed in), the merge by a collaborator merge.authority does
// not list is certified: the attack the rule stops.
func TestMergeAuthorityNegativeControl(t *testing.T) {
	anyone := func(in merge.AuthorityInput) merge.AuthorityResult {
		return merge.AuthorityResult{Held: true, Authority: merge.AuthorityUnchecked, MergedBy: in.MergedBy.Login}
	}
	w := appkit.NewReadbackWorld(t, mergeAuthorityYAML, func(o *app.ReadbackSeams) { o.Authority = anyone })
	w.Repo.Grant("mallory", "write")
	sha, err := w.PR.MergeBy("mallory", ghfake.MergeCommit)
	if err != nil {
		t.Fatal(err)
	}
	w.MainCI(sha, "success")
	if c := w.CertificateOn(t, sha); c["mergeAuthority"] != nil {
		t.Errorf("mergeAuthority %v recorded for an unchecked merge", c["mergeAuthority"])
	}
}

// jsonInt is n as the certificate's parsed JSON holds it.
func jsonInt(n int64) string { return strconv.FormatInt(n, 10) }

// mapsEqual compares a parsed JSON object with want (numbers as text).
func mapsEqual(got, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		g, ok := got[k]
		if !ok || fmt.Sprint(g) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// TestBoardShowsReadbackOwed: merge.authority grants coordinator carol
// merge authority, so her merge owes its readback at once: the board shows
// the story "readback owed" until the readback on main is observed, then
// merged with nothing owed (a low-risk unit: no audit, no certificate).
func TestBoardShowsReadbackOwed(t *testing.T) {
	w := appkit.NewReadbackWorldWith(t, mergeAuthorityYAML, func(o *app.ReadbackSeams) { o.Audited = nil }, func(o *app.Options) { o.BoardDelay = 100 * time.Millisecond })
	b := &appkit.BoardWorld{Live: w.Live, Unit: w.Unit, GH: w.F.Client(w.Inst.Token())}
	sha, err := w.PR.MergeBy("carol", ghfake.MergeCommit)
	if err != nil {
		t.Fatal(err)
	}
	b.WaitBoard(t, "🟢 merged", "readback owed: #"+strconv.Itoa(w.PR.Number()), "merge authority granted to carol")
	w.MainCI(sha, "success")
	w.WaitReadback(t, sha, "success")
	appkit.WaitFor(t, 10*time.Second, "the board without the owed readback", func() bool {
		body := b.BoardIssue(t).GetBody()
		return strings.Contains(body, "🟢 merged") && !strings.Contains(body, "readback owed")
	})
}
