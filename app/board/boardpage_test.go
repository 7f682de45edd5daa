package board_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// startBoardApp runs an App whose board page is configured with c (its
// PublicURL is filled in with the App's own address when empty) and
// returns it with its base URL.
func startBoardApp(t *testing.T, f *ghfake.Fake, c app.BoardPage) (*app.App, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	if c.ClientID != "" && c.PublicURL == "" {
		c.PublicURL = base
	}
	o := appkit.Options(t, nil, "")
	o.GitHubURL, o.Board = f.URL(), c
	return appkit.StartOn(t, o, ln)
}

func getPage(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBoardPageThroughApp signs alice in to the App's /board: she sees the
// board the App kept for acme/ledger, which she may write, and not
// acme/secret, of the same installation, with a board kept too.
func TestBoardPageThroughApp(t *testing.T) {
	f := ghfake.New(t)
	ghApp := f.App(appkit.AppID, appkit.Key(t))
	f.CreateRepo("acme/ledger").Grant("alice", "write")
	f.CreateRepo("acme/secret").SetPrivate(true)
	ghApp.Install("acme", appkit.WorldPerms)
	a, base := startBoardApp(t, f, app.BoardPage{ClientID: ghApp.ClientID, ClientSecret: []byte(ghApp.ClientSecret())})
	for repo, title := range map[string]string{"acme/ledger": "Idempotent ledger", "acme/secret": "Secret acquisition"} {
		b, _ := json.Marshal(boardview.Board{Version: boardview.Version, Repo: repo, Increments: []boardview.Increment{{Number: 1, Title: title, Open: true}}})
		if err := a.Store().SaveBoard(context.Background(), repo, b, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	f.SignIn("alice")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	status, body := getPage(t, c, base+"/board/login")
	if status != http.StatusOK || !strings.Contains(body, "Idempotent ledger") {
		t.Fatalf("board after sign-in: %d\n%s", status, body)
	}
	if strings.Contains(body, "acme/secret") || strings.Contains(body, "Secret acquisition") {
		t.Errorf("alice sees acme/secret")
	}
}

func TestBoardPageOffWithoutFlags(t *testing.T) {
	f := ghfake.New(t)
	_, base := startBoardApp(t, f, app.BoardPage{})
	for _, path := range []string{"/board", "/board/login"} {
		status, body := getPage(t, http.DefaultClient, base+path)
		if status != http.StatusNotFound || !strings.Contains(body, "The board page is off") {
			t.Errorf("GET %s = %d, want 404 saying the page is off\n%s", path, status, body)
		}
	}
}
