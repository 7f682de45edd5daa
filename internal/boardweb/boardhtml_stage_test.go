package boardweb

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// htmlStagesBoard holds one increment at each stage: building,
// integrating, accepting (its accept command) and complete (its
// certificate).
func htmlStagesBoard() boardview.Board {
	u := "https://github.com/acme/ledger"
	cand := strings.Repeat("c", 40)
	story := func(n int, st boardview.State) []boardview.Story {
		return []boardview.Story{{Number: n, Title: "Story", URL: u + "/issues/" + strconv.Itoa(n), Class: "product", Risk: "medium", State: st}}
	}
	return boardview.Board{Version: boardview.Version, Repo: "acme/ledger", URL: u, Increments: []boardview.Increment{
		{Number: 4, Title: "Building", URL: u + "/milestone/4", Open: true, Stories: story(40, boardview.StateOpen), Stage: incrementrules.Building, Tier: "medium",
			Waiting: []string{"story #40 is not done yet (open, or its closure not judged)"}},
		{Number: 3, Title: "Integrating", URL: u + "/milestone/3", Open: true, Stories: story(30, boardview.StateCertified), Stage: incrementrules.Integrating, Tier: "medium", Judged: true,
			Waiting: []string{"waiting for a run of ci at cccccccccccc"}},
		{Number: 2, Title: "Accepting <b>", URL: u + "/milestone/2", Open: true, Stories: story(20, boardview.StateCertified), Stage: incrementrules.Accepting, Tier: "high", Judged: true,
			Waiting: []string{"high risk: an owner accepts <candidate>"}, AcceptCommand: "/aep accept 2 " + cand},
		{Number: 1, Title: "Complete", URL: u + "/milestone/1", Open: false, Stories: story(10, boardview.StateCertified), Stage: incrementrules.Complete, Tier: "medium", Judged: true,
			Certificate: &boardview.IncrementCertificate{SHA256: strings.Repeat("e", 64), Integrated: cand, URL: u + "/runs/77",
				Fetch: boardview.FetchCommand("acme/ledger", 1, cand, "acme-aepgate")}},
	}}
}

func TestRenderBoardPageStages(t *testing.T) {
	got, err := RenderBoardPage(BoardPage{Title: "aepgate board", Generated: boardNow,
		Repos: []BoardPageRepo{{Repo: "acme/ledger", Kept: true, Board: htmlStagesBoard()}}})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "boardhtml-stages.golden"), got)
	if strings.Contains(string(got), "<candidate>") || strings.Contains(string(got), "<b>") {
		t.Error("text from GitHub reached the page unescaped")
	}
}
