package checks

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// stagesBoard holds one increment at each stage: building (not judged
// yet, a story open), integrating (readback missing), accepting (the
// owner's acceptance missing) and complete (its certificate linked).
func stagesBoard() boardview.Board {
	u := "https://github.com/acme/app"
	cand := strings.Repeat("c", 40)
	story := func(n int, st boardview.State) []boardview.Story {
		return []boardview.Story{{Number: n, Title: "Story", URL: u + "/issues/" + strconv.Itoa(n), Class: "product", Risk: "medium", State: st}}
	}
	return boardview.Board{Version: boardview.Version, Repo: "acme/app", URL: u, Increments: []boardview.Increment{
		{Number: 4, Title: "Building", URL: u + "/milestone/4", Open: true, Stories: story(40, boardview.StateOpen), Stage: incrementrules.Building, Tier: "medium",
			Waiting: []string{"story #40 is not done yet (open, or its closure not judged)"}},
		{Number: 3, Title: "Integrating", URL: u + "/milestone/3", Open: true, Stories: story(30, boardview.StateCertified), Stage: incrementrules.Integrating, Tier: "medium", Judged: true,
			Waiting: []string{"waiting for a run of ci at cccccccccccc"}},
		{Number: 2, Title: "Accepting", URL: u + "/milestone/2", Open: true, Stories: story(20, boardview.StateCertified), Stage: incrementrules.Accepting, Tier: "high", Judged: true,
			Waiting: []string{"high risk: an owner accepts candidate cccccccccccc with the command below, in a new comment on the control issue"}, AcceptCommand: "/aep accept 2 " + cand},
		{Number: 1, Title: "Complete", URL: u + "/milestone/1", Open: true, Stories: story(10, boardview.StateCertified), Stage: incrementrules.Complete, Tier: "medium", Judged: true,
			Certificate: &boardview.IncrementCertificate{SHA256: strings.Repeat("e", 64), Integrated: cand, URL: u + "/runs/77",
				Fetch: boardview.FetchCommand("acme/app", 1, cand, "acme-aepgate")}},
	}}
}

func TestBoardStagesGolden(t *testing.T) {
	golden.CheckString(t, "testdata/board-stages.golden", BoardIssueBody(BoardRegion(stagesBoard())))
}

// TestBoardStageChangesHash: a new stage changes the region's hash, so
// the board issue is rewritten when an increment moves on.
func TestBoardStageChangesHash(t *testing.T) {
	b := stagesBoard()
	before := boardHash(BoardRegion(b))
	b.Increments[1].Stage, b.Increments[1].Waiting = incrementrules.Accepting, nil
	if boardHash(BoardRegion(b)) == before {
		t.Error("a new stage kept the region's hash")
	}
}

// TestBoardTamperGolden: a story whose contract was changed by someone
// who may not change it shows the kept risk and who changed it.
func TestBoardTamperGolden(t *testing.T) {
	b := stagesBoard()
	b.Increments = b.Increments[2:3]
	s := &b.Increments[0].Stories[0]
	s.Risk = "high"
	s.Tamper = "the contract was changed by `mallory`, who may not change it, so the kept contract counts (risk lowered from high to low); an owner or coordinator edits the issue to make a change count"
	golden.CheckString(t, "testdata/board-tamper.golden", BoardIssueBody(BoardRegion(b)))
}
