package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/internal/gh"
)

// The files app register writes into its --dir.
const (
	keyFileName           = "private-key.pem"
	webhookSecretFileName = "webhook-secret"
	clientSecretFileName  = "client-secret"
	envFileName           = "aepgate.env"
)

// secretFiles are the absolute paths app register writes.
type secretFiles struct {
	dir                                          string
	PrivateKey, WebhookSecret, ClientSecret, Env string
}

// registration is what app register reports: the App and where its
// secrets went.
type registration struct {
	gh.AppInfo
	ClientID   string      `json:"client_id"`
	InstallURL string      `json:"install_url"`
	Files      secretFiles `json:"files"`
}

// MarshalJSON names the files by role.
func (f secretFiles) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`{"private_key":%q,"webhook_secret":%q,"client_secret":%q,"env":%q}`,
		f.PrivateKey, f.WebhookSecret, f.ClientSecret, f.Env)), nil
}

// newSecretFiles resolves the paths in dir, which must be a folder, and
// refuses when any of them exists: the secrets GitHub hands out once must
// never replace, nor be lost to, a file already there.
func newSecretFiles(dir string) (secretFiles, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return secretFiles{}, fmt.Errorf("--dir %q: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return secretFiles{}, fmt.Errorf("--dir %s is not a folder", shown(dir))
	}
	f := secretFiles{
		dir: abs, PrivateKey: filepath.Join(abs, keyFileName), WebhookSecret: filepath.Join(abs, webhookSecretFileName),
		ClientSecret: filepath.Join(abs, clientSecretFileName), Env: filepath.Join(abs, envFileName),
	}
	for _, p := range []string{f.PrivateKey, f.WebhookSecret, f.ClientSecret, f.Env} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return secretFiles{}, fmt.Errorf("%s exists already: move it away or choose another --dir", shown(p))
		}
	}
	return f, nil
}

// write stores the App's key and secrets and the env file serve reads,
// each created new with mode 0600.
func (f secretFiles) write(app gh.ManifestApp, githubURL, publicURL string) (registration, error) {
	for _, w := range []struct{ path, body string }{
		{f.PrivateKey, app.PEM}, {f.WebhookSecret, app.WebhookSecret + "\n"}, {f.ClientSecret, app.ClientSecret + "\n"},
		{f.Env, f.envFile(app, githubURL, publicURL)},
	} {
		if err := writeNew(w.path, w.body); err != nil {
			return registration{}, err
		}
	}
	return registration{AppInfo: app.AppInfo, ClientID: app.ClientID, InstallURL: installURL(app.AppInfo), Files: f}, nil
}

// envFile is the AEPGATE_* settings of the new App, one KEY=VALUE a line
// (serve --env-file, docker --env-file and systemd's EnvironmentFile read
// this form). The board page's settings are there only when GitHub gave
// a client secret.
func (f secretFiles) envFile(app gh.ManifestApp, githubURL, publicURL string) string {
	lines := []string{
		"# aepgate serve settings for the App " + app.Slug + ", written by 'aepgate app register'",
		"AEPGATE_APP_ID=" + strconv.FormatInt(app.ID, 10),
		"AEPGATE_PRIVATE_KEY_FILE=" + f.PrivateKey,
		"AEPGATE_WEBHOOK_SECRET_FILE=" + f.WebhookSecret,
	}
	if app.ClientID != "" && app.ClientSecret != "" {
		lines = append(lines, "AEPGATE_CLIENT_ID="+app.ClientID, "AEPGATE_CLIENT_SECRET_FILE="+f.ClientSecret, "AEPGATE_PUBLIC_URL="+publicURL)
	}
	if githubURL != gh.DefaultBaseURL {
		lines = append(lines, "AEPGATE_GITHUB_URL="+githubURL)
	}
	return strings.Join(lines, "\n") + "\n"
}

// writeNew creates path (never over an existing file) with mode 0600.
func writeNew(path, body string) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", shown(path), err)
	}
	if _, err := fh.WriteString(body); err != nil {
		fh.Close()
		return fmt.Errorf("write %s: %w", shown(path), err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("write %s: %w", shown(path), err)
	}
	return nil
}

// installURL is where the App is installed on accounts and repositories.
func installURL(a gh.AppInfo) string {
	if a.HTMLURL == "" {
		return ""
	}
	return strings.TrimSuffix(a.HTMLURL, "/") + "/installations/new"
}
