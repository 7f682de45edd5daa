package replay

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/coverage"
)

// Init opens the bare repository at dir, creating it (git init --bare)
// when dir holds none: the clone the App keeps of one repository, which
// Fetch fills.
func Init(ctx context.Context, dir string) (*Repo, error) {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		r := &Repo{dir: ".", timeout: DefaultTimeout}
		if _, _, err := r.git(ctx, "init", "--quiet", "--bare", "--", dir); err != nil {
			return nil, fmt.Errorf("replay: create %s: %w", dir, err)
		}
	}
	return Open(ctx, dir)
}

// Remote is where Fetch fetches from: an https URL (or a file URL) and,
// for https, the token it authenticates with (an installation token; empty
// for none). The token reaches git through its environment, never its
// arguments, as the Authorization header actions/checkout also uses.
type Remote struct {
	URL   string
	Token string
}

// Fetch fetches the commits shas from remote with the history the
// repository lacks, no tags. GitHub serves a commit by its SHA when a ref
// reaches it. Each commit is kept under refs/fetched/<sha>, so that git
// never prunes it and the next fetch sends only what the clone lacks. Only
// the https and file transports are allowed.
func (r *Repo) Fetch(ctx context.Context, remote Remote, shas ...string) error {
	if !strings.HasPrefix(remote.URL, "https://") && !strings.HasPrefix(remote.URL, "file://") {
		return fmt.Errorf("replay: fetch from %q: only https:// and file:// remotes", remote.URL)
	}
	if len(shas) == 0 {
		return nil
	}
	for _, s := range shas {
		if !coverage.ValidSHA(s) {
			return fmt.Errorf("replay: fetch %q: not a full 40-hex commit SHA", s)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	args := []string{"fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", remote.URL}
	for _, s := range shas {
		args = append(args, "+"+s+":refs/fetched/"+s)
	}
	env := append(authEnv(Env(os.Environ()), remote), "GIT_ALLOW_PROTOCOL=https:file")
	if _, _, err := r.run(ctx, env, nil, args...); err != nil {
		return fmt.Errorf("replay: fetch from %s: %w", remote.URL, err)
	}
	return nil
}

// Has reports whether the repository holds every commit of shas (each a
// full 40-hex SHA): whether Fetch is needed before Observe.
func (r *Repo) Has(ctx context.Context, shas ...string) (bool, error) {
	for _, s := range shas {
		if !coverage.ValidSHA(s) {
			return false, fmt.Errorf("replay: %q: not a full 40-hex commit SHA", s)
		}
	}
	err := r.commits(ctx, shas...)
	var pe *problemError
	if errors.As(err, &pe) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("replay: %w", err)
	}
	return true, nil
}

// authEnv is env with, for an https remote with a token, the header git
// sends it: http.<URL>.extraheader through GIT_CONFIG_KEY_<n> and
// GIT_CONFIG_VALUE_<n> after the entries env holds.
func authEnv(env []string, remote Remote) []string {
	if remote.Token == "" || !strings.HasPrefix(remote.URL, "https://") {
		return env
	}
	n, out := 0, make([]string, 0, len(env)+3)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, _ = strconv.Atoi(v)
			continue
		}
		out = append(out, kv)
	}
	n = max(n, 0)
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + remote.Token))
	return append(out,
		fmt.Sprintf("GIT_CONFIG_KEY_%d=http.%s.extraheader", n, remote.URL),
		fmt.Sprintf("GIT_CONFIG_VALUE_%d=AUTHORIZATION: basic %s", n, basic),
		fmt.Sprintf("GIT_CONFIG_COUNT=%d", n+1))
}
