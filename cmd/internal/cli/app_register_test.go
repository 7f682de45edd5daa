package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// registerRun is one 'aepgate app register' running in the background.
type registerRun struct {
	local  string // the page's address, from the command's stderr
	dir    string
	code   chan int
	stdout *strings.Builder
}

// startRegister runs app register against fake with args after the
// common ones, and waits for the page's address.
func startRegister(t *testing.T, fake *ghfake.Fake, args ...string) *registerRun {
	t.Helper()
	r := &registerRun{dir: t.TempDir(), code: make(chan int, 1), stdout: &strings.Builder{}}
	pr, pw := io.Pipe()
	all := append([]string{"app", "register", "--url", "https://aepgate.example.com", "--github-url", fake.URL(),
		"--dir", r.dir, "--timeout", "2m"}, args...)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		r.code <- runFull(ctx, all, strings.NewReader(""), r.stdout, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`^open (http://127\.0\.0\.1:\d+)/ in your browser`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("app register's first line %q (%v), want the page's address", line, err)
	}
	r.local = m[1]
	return r
}

// wait is the command's exit code.
func (r *registerRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case c := <-r.code:
		return c
	case <-time.After(time.Minute):
		t.Fatal("app register did not end")
		return -1
	}
}

// pressButton does what the browser does: load the page, post its form
// to GitHub (the fake) and follow the redirect back to the callback.
func pressButton(t *testing.T, local string) (status int, body string) {
	t.Helper()
	page := get(t, local+"/")
	action := html.UnescapeString(regexp.MustCompile(`action="([^"]+)"`).FindStringSubmatch(page)[1])
	manifest := html.UnescapeString(regexp.MustCompile(`name="manifest" value="([^"]*)"`).FindStringSubmatch(page)[1])
	resp, err := http.PostForm(action, url.Values{"manifest": {manifest}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func get(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestAppRegisterEndToEnd: the button registers the App on the fake, the
// callback converts the code, and the files it writes are the App's: its
// key signs a JWT GitHub accepts for its ID, and serve's env file names
// them, each file mode 0600.
func TestAppRegisterEndToEnd(t *testing.T) {
	for _, tc := range []struct{ name, org, owner string }{
		{"account", "", "octocat"},
		{"organisation", "acme", "acme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := ghfake.New(t)
			fake.SignIn("octocat")
			args := []string{"--name", "Acme aepgate", "--format", "json"}
			if tc.org != "" {
				args = append(args, "--org", tc.org)
			}
			r := startRegister(t, fake, args...)
			status, body := pressButton(t, r.local)
			if status != http.StatusOK || !strings.Contains(body, "Registered") {
				t.Fatalf("callback page: %d %s", status, body)
			}
			if code := r.wait(t); code != 0 {
				t.Fatalf("exit %d", code)
			}
			var got registration
			if err := json.Unmarshal([]byte(r.stdout.String()), &got); err != nil {
				t.Fatalf("stdout %q: %v", r.stdout, err)
			}
			app := fake.AppBySlug("acme-aepgate")
			if app == nil || got.ID != app.ID || got.Owner != tc.owner || app.Owner != tc.owner {
				t.Fatalf("registered %+v, fake's App %+v, want owner %s", got, app, tc.owner)
			}
			checkRegisteredFiles(t, fake, r.dir, app)
		})
	}
}

// checkRegisteredFiles: the four files are 0600; the key authenticates
// as the App; the env file is what serve reads.
func checkRegisteredFiles(t *testing.T, fake *ghfake.Fake, dir string, app *ghfake.App) {
	t.Helper()
	for _, name := range []string{keyFileName, webhookSecretFileName, clientSecretFileName, envFileName} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v; want 0600", name, err, fi.Mode().Perm())
		}
	}
	pem, _ := os.ReadFile(filepath.Join(dir, keyFileName))
	key, err := gh.ParsePrivateKey(pem)
	if err != nil {
		t.Fatal(err)
	}
	info, err := gh.NewAppAuth(app.ID, key, fake.URL(), nil).AppIdentity(context.Background())
	if err != nil || info.Slug != app.Slug {
		t.Fatalf("the written key as App %d: %+v, %v", app.ID, info, err)
	}
	secret, _ := os.ReadFile(filepath.Join(dir, clientSecretFileName))
	if strings.TrimSpace(string(secret)) != app.ClientSecret() {
		t.Errorf("client-secret holds %q, want the App's", secret)
	}
	env, _ := os.ReadFile(filepath.Join(dir, envFileName))
	got := envKeys(string(env))
	want := map[string]string{
		"AEPGATE_APP_ID": strconv.FormatInt(app.ID, 10), "AEPGATE_PRIVATE_KEY_FILE": filepath.Join(dir, keyFileName),
		"AEPGATE_WEBHOOK_SECRET_FILE": filepath.Join(dir, webhookSecretFileName), "AEPGATE_CLIENT_ID": app.ClientID,
		"AEPGATE_CLIENT_SECRET_FILE": filepath.Join(dir, clientSecretFileName), "AEPGATE_PUBLIC_URL": "https://aepgate.example.com",
		"AEPGATE_GITHUB_URL": fake.URL(),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("aepgate.env (-want +got):\n%s", d)
	}
}

// envKeys reads KEY=VALUE lines, skipping comments.
func envKeys(s string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			out[k] = v
		}
	}
	return out
}
