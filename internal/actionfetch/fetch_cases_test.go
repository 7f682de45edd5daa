package actionfetch

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"
)

// releases are the fake host's releases; v1 and v1.2 move as the release
// workflow leaves them, v1.1 still names v1.1.0, v2 points at a commit no
// release names.
var releases = []string{"v1.1.0", "v1.2.0", "v1.2.3", "v1.3.0"}

func host(t *testing.T) (*fake, string) {
	t.Helper()
	f := newFake(t)
	for _, r := range releases {
		f.publish(r)
	}
	return f, actionRepo(t, releases, map[string]string{"v1": "v1.3.0", "v1.2": "v1.2.3", "v1.1": "v1.1.0", "v2": ""})
}

func linux(f *fake, repo, ref string) map[string]string {
	return map[string]string{"RELEASES_URL": f.url, "REPO_URL": repo, "ACTION_REF": ref, "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64"}
}

// TestFetchResolvesReleases: an exact tag, a moving major and a moving
// minor each download and run their release's binary; a commit SHA and a
// branch download nothing and say the source is built.
func TestFetchResolvesReleases(t *testing.T) {
	needTools(t)
	f, repo := host(t)
	path := script(t, f.key)
	tests := []struct{ ref, want string }{
		{"v1.2.3", "aepgate v1.2.3"},
		{"v1", "aepgate v1.3.0"},
		{"v1.2", "aepgate v1.2.3"},
		{"v1.1", "aepgate v1.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			r := run(t, path, linux(f, repo, tt.ref), nil)
			if r.code != 0 || r.bin == "" {
				t.Fatalf("exit %d, bin %q:\n%s", r.code, r.bin, r.output)
			}
			if got := version(t, r.bin); got != tt.want {
				t.Errorf("fetched binary says %q, want %q", got, tt.want)
			}
			if !strings.Contains(r.output, "signed by the release key") {
				t.Errorf("the log does not say the checksums were verified:\n%s", r.output)
			}
		})
	}
	for _, ref := range []string{"0123456789abcdef0123456789abcdef01234567", "main", ""} {
		t.Run("builds "+ref, func(t *testing.T) {
			before := f.hits.Load()
			r := run(t, path, linux(f, repo, ref), fakeBinary("v1.3.0"))
			if r.code != 0 || r.bin != "" || f.hits.Load() != before || !strings.Contains(r.output, "is a commit SHA or a branch, not a release; building the action's source") {
				t.Errorf("exit %d, bin %q, %d downloads:\n%s", r.code, r.bin, f.hits.Load()-before, r.output)
			}
		})
	}
}

// TestFetchRefusesWhatTheReleaseDidNotSign: each attack on a release makes
// the step fail without writing a binary: an archive replaced after the
// release, a checksums.txt rewritten to match it (its signature no longer
// verifies), a signature removed, a checksums.txt signed by another key,
// and a moving tag pointed at a commit no release names.
func TestFetchRefusesWhatTheReleaseDidNotSign(t *testing.T) {
	needTools(t)
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	const archive = "aepgate_1.2.3_linux_amd64.tar.gz"
	tests := []struct {
		name   string
		ref    string
		tamper func(t *testing.T, f *fake)
		want   string
	}{
		{"tampered binary", "v1.2.3", func(t *testing.T, f *fake) {
			f.set("v1.2.3", archive, tarGz(t, "aepgate", []byte("#!/bin/sh\necho pwned\n")))
		}, "checksum mismatch for " + archive},
		{"lying checksum file", "v1.2", func(t *testing.T, f *fake) {
			evil := tarGz(t, "aepgate", []byte("#!/bin/sh\necho pwned\n"))
			f.set("v1.2.3", archive, evil)
			f.set("v1.2.3", "checksums.txt", []byte(sum(evil)+"  "+archive+"\n"))
		}, "does not verify against the release key"},
		{"missing signature", "v1", func(t *testing.T, f *fake) { f.set("v1.3.0", "checksums.txt.sig", nil) }, "v1.3.0 has no checksums.txt.sig"},
		{"signed by another key", "v1.2.3", func(t *testing.T, f *fake) {
			f.set("v1.2.3", "checksums.txt.sig", sign(t, other, f.get("v1.2.3", "checksums.txt")))
		}, "does not verify against the release key"},
		{"moving tag on an unreleased commit", "v2", func(*testing.T, *fake) {}, "v2 points at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, repo := host(t)
			tt.tamper(t, f)
			r := run(t, script(t, f.key), linux(f, repo, tt.ref), nil)
			if r.code != 1 || r.bin != "" || !strings.Contains(r.output, "::error::") || !strings.Contains(r.output, tt.want) {
				t.Errorf("exit %d, bin %q, output:\n%s\nwant exit 1, no bin, an error with %q", r.code, r.bin, r.output, tt.want)
			}
		})
	}
}

// TestFetchVerificationNegativeControl runs two attacks against copies
// of fetch.sh with the check that stops each taken out: the tampered
// binary is then downloaded and runs, so each check is what stops it.
func TestFetchVerificationNegativeControl(t *testing.T) {
	needTools(t)
	const archive = "aepgate_1.2.3_linux_amd64.tar.gz"
	tests := []struct {
		name, check string
		lie         bool // rewrite checksums.txt to match the tampered archive
	}{
		{"lying checksum file without the signature check",
			`if ! openssl dgst -sha256 -verify "$key" -signature "$tmp/checksums.txt.sig" "$tmp/checksums.txt" >/dev/null 2>&1; then`, true},
		{"tampered binary without the checksum check", `if [ "$want" != "$got" ]; then`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, repo := host(t)
			evil := tarGz(t, "aepgate", []byte("#!/bin/sh\necho pwned\n"))
			f.set("v1.2.3", archive, evil)
			if tt.lie {
				f.set("v1.2.3", "checksums.txt", []byte(sum(evil)+"  "+archive+"\n"))
			}
			path := script(t, f.key)
			without(t, path, tt.check)
			r := run(t, path, linux(f, repo, "v1.2.3"), nil)
			if r.code != 0 || r.bin == "" || version(t, r.bin) != "pwned" {
				t.Fatalf("exit %d, bin %q:\n%s\nwant the tampered binary fetched", r.code, r.bin, r.output)
			}
		})
	}
}

func TestFetchFallsBackWhereNoReleaseBinaryApplies(t *testing.T) {
	needTools(t)
	f, repo := host(t)
	tests := []struct {
		name    string
		env     map[string]string
		path    string
		pathBin []byte
		want    string
	}{
		{"unknown arch", map[string]string{"RUNNER_ARCH": "ARM"}, script(t, f.key), nil, "no release binary for Linux/ARM"},
		{"unknown OS", map[string]string{"RUNNER_OS": "Plan9"}, script(t, f.key), nil, "no release binary for Plan9/X64"},
		{"no release key in the action", nil, script(t, nil), nil, "::notice title=aepgate builds from source::aepgate v1.3.0 is built from the action's source on this runner, not downloaded: this copy of the action carries no release signing key"},
		{"no release key on an unknown runner", map[string]string{"RUNNER_ARCH": "ARM"}, script(t, nil), nil, "carries no release signing key"},
		{"PATH binary of the release", nil, script(t, f.key), fakeBinary("v1.3.0"), "from PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := linux(f, repo, "v1")
			for k, v := range tt.env {
				env[k] = v
			}
			before := f.hits.Load()
			r := run(t, tt.path, env, tt.pathBin)
			if r.code != 0 || f.hits.Load() != before || !strings.Contains(r.output, tt.want) {
				t.Errorf("exit %d, %d downloads, output:\n%s\nwant exit 0, no download, %q", r.code, f.hits.Load()-before, r.output, tt.want)
			}
			if n := strings.Count(r.output, "::notice"); n > 1 {
				t.Errorf("%d notices, want at most one:\n%s", n, r.output)
			}
		})
	}
}
