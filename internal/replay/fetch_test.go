package replay

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/coverage"
)

// TestInitFetch: a new clone lacks the commits (unverifiable); once
// fetched by SHA, the replay classifies.
func TestInitFetch(t *testing.T) {
	w := newWork(t)
	base := w.commit("base", map[string]string{"f.txt": lines})
	w.git("checkout", "-q", "-b", "feature")
	head := w.commit("feature", feature())
	w.git("checkout", "-q", "main")
	w.commit("main moves", map[string]string{"f.txt": strings.Replace(lines, "six", "SIX", 1)})
	shipped := squash(w, head, nil)
	in := Input{AuditedHead: head, AuditBase: base, Shipped: shipped}

	ctx := context.Background()
	r, err := Init(ctx, filepath.Join(t.TempDir(), "octo", "demo.git"))
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := r.Coverage(ctx, in); err != nil || got.Class != coverage.Unverifiable || !strings.Contains(got.Reason, "fetch it first") {
		t.Fatalf("before the fetch: %+v, %v; want unverifiable, fetch it first", got, err)
	}
	if has, err := r.Has(ctx, head, shipped); err != nil || has {
		t.Fatalf("Has before the fetch = %v, %v; want false", has, err)
	}
	if err := r.Fetch(ctx, Remote{URL: "file://" + w.dir}, head, shipped); err != nil {
		t.Fatal(err)
	}
	if has, err := r.Has(ctx, head, shipped); err != nil || !has {
		t.Fatalf("Has after the fetch = %v, %v; want true", has, err)
	}
	if _, got, err := r.Coverage(ctx, in); err != nil || got.Class != coverage.Replay {
		t.Fatalf("after the fetch: %+v, %v; want replay", got, err)
	}
	if _, err := Init(ctx, r.dir); err != nil {
		t.Fatalf("Init of an existing clone: %v", err)
	}
}

func TestFetchRefuses(t *testing.T) {
	w := newWork(t)
	w.commit("base", map[string]string{"f.txt": lines})
	ctx := context.Background()
	r, err := Init(ctx, filepath.Join(t.TempDir(), "clone.git"))
	if err != nil {
		t.Fatal(err)
	}
	sha := strings.Repeat("ab", 20)
	tests := []struct {
		name   string
		remote string
		shas   []string
		want   string
	}{
		{"ext transport", "ext::sh -c touch% /tmp/pwned", []string{sha}, "only https:// and file://"},
		{"option as a remote", "--upload-pack=touch /tmp/pwned", []string{sha}, "only https:// and file://"},
		{"ssh", "ssh://example.com/x", []string{sha}, "only https:// and file://"},
		{"option as a commit", "file://" + w.dir, []string{"--depth=1"}, "not a full 40-hex"},
		{"unknown commit", "file://" + w.dir, []string{sha}, "fetch from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Fetch(ctx, Remote{URL: tt.remote}, tt.shas...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestAuthEnv: the token travels as git config in the environment, after
// the entries Env sets (which clear actions/checkout's header), never for
// a file remote or without a token.
func TestAuthEnv(t *testing.T) {
	base := Env([]string{"PATH=/bin"})
	got := authEnv(base, Remote{URL: "https://github.com/octo/demo", Token: "ghs_secret"})
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:ghs_secret"))
	want := []string{
		"PATH=/bin", "GIT_CONFIG_KEY_0=http.https://github.com/.extraheader", "GIT_CONFIG_VALUE_0=",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
		"GIT_CONFIG_KEY_1=http.https://github.com/octo/demo.extraheader", "GIT_CONFIG_VALUE_1=AUTHORIZATION: basic " + basic,
		"GIT_CONFIG_COUNT=2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("authEnv (-want +got):\n%s", diff)
	}
	for _, r := range []Remote{{URL: "file:///x", Token: "t"}, {URL: "https://github.com/o/r"}} {
		if diff := cmp.Diff(base, authEnv(base, r)); diff != "" {
			t.Errorf("authEnv(%+v) changed the environment:\n%s", r, diff)
		}
	}
}
