package checks

import (
	"regexp"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// autolinkTitle is an issue title written to become links on the board by
// GFM's extended autolinks (GFM 0.29 §6.9) and a mention; it fits in
// maxBoardText.
const autolinkTitle = "@victim https://evil.example/a, http://evil.example, HTTPS://EVIL.EXAMPLE/b, " +
	"www.evil.example/x, WWW.Evil.Example, root@evil.example, mailto:r@evil.example, xmpp:r@evil.example/x, ftp://evil.example"

// autolinkBoard shows the title everywhere the board shows GitHub's text.
func autolinkBoard() boardview.Board {
	u := "https://github.com/acme/app"
	return boardview.Board{Version: boardview.Version, Repo: "acme/app", URL: u,
		Inbox: []boardview.InboxItem{{Kind: "gate", Subject: autolinkTitle, Question: autolinkTitle, Choices: []string{"a", "b"},
			Reply: "/aep resolve g a", URL: u + "/issues/1", Since: boardT0}},
		Increments: []boardview.Increment{{Number: 1, Title: autolinkTitle, URL: u + "/milestone/1", Open: true,
			Stories: []boardview.Story{{Number: 1, Title: autolinkTitle, URL: u + "/issues/1", State: boardview.StateBlocked, Reason: autolinkTitle}}}}}
}

func TestBoardAutolinksGolden(t *testing.T) {
	golden.CheckString(t, "testdata/board-autolinks.golden", BoardIssueBody(BoardRegion(autolinkBoard())))
}

// hrefs are the link targets of rendered HTML.
var hrefs = regexp.MustCompile(`href="([^"]*)"`)

// TestBoardDefusesAutolinks renders the board as GFM (autolinks on): no
// link leads anywhere but GitHub, and no mention of @victim is left. Its
// negative control renders the board escaped but not defused: the title's
// addresses become links.
func TestBoardDefusesAutolinks(t *testing.T) {
	tests := []struct {
		name  string
		text  func(string) string
		links bool
	}{
		{"defused", inline, false},
		{"negative control: escaped, not defused", func(s string) string { return escapeInline(oneLine(s, maxBoardText)) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := boardRegion(autolinkBoard(), boardEscapes{text: tt.text, node: boardNodeLabel})
			var evil []string
			for _, m := range hrefs.FindAllStringSubmatch(renderGFM(t, md), -1) {
				if !strings.HasPrefix(m[1], "https://github.com/acme/app/") {
					evil = append(evil, m[1])
				}
			}
			if got := len(evil) > 0; got != tt.links {
				t.Errorf("links away from GitHub: %q; want some: %v\n%s", evil, tt.links, md)
			}
			if mention := strings.Contains(md, "@victim"); mention != tt.links {
				t.Errorf("a live mention of @victim: %v, want %v", mention, tt.links)
			}
		})
	}
}

func TestDefuseAutolinks(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://x.y", "https:" + zwj + "//x.y"},
		{"WWW.x.y", "WWW" + zwj + ".x.y"},
		{"a@b.c", "a@" + zwj + "b.c"},
		{"fix #12 at 10:30 // later", "fix #12 at 10:30 // later"},
		{"wwww.x", "wwww" + zwj + ".x"},
	}
	for _, tt := range tests {
		if got := defuseAutolinks(tt.in); got != tt.want {
			t.Errorf("defuseAutolinks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
