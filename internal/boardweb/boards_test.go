package boardweb

import (
	"strconv"
	"time"

	"github.com/aepgate/aepgate/protocol/boardview"
)

var boardTime = time.Date(2026, 11, 12, 9, 30, 0, 0, time.UTC)

// ledgerBoard is acme/ledger's kept board: an increment with a story in
// every state, an owner gate and a stall waiting, one certificate.
func ledgerBoard() boardview.Board {
	u := "https://github.com/acme/ledger"
	att := func(pr int, open, merged bool, h boardview.Health) []boardview.Attempt {
		return []boardview.Attempt{{PR: pr, URL: u + "/pull/" + strconv.Itoa(pr), Open: open, Merged: merged, Health: h}}
	}
	story := func(n int, title, class, risk string, st boardview.State, deps ...int) boardview.Story {
		return boardview.Story{Number: n, Title: title, URL: u + "/issues/" + strconv.Itoa(n), Class: class, Risk: risk, State: st, DependsOn: deps}
	}
	s := []boardview.Story{
		story(12, "Idempotency key column", "product", "medium", boardview.StateCertified),
		story(13, "Reject duplicate postings with 409", "product", "high", boardview.StateMerged, 12),
		story(14, "Backfill existing postings", "contract", "medium", boardview.StateHeld, 12),
		story(15, "Batch jobs send keys", "product", "medium", boardview.StateInReview, 13, 14),
		story(16, "Ledger export shows keys", "product", "low", boardview.StateInProgress, 13),
		story(17, "Payout retries reuse the key", "product", "high", boardview.StateBlocked, 15),
		story(18, "Runbook for key collisions", "housekeeping", "low", boardview.StateOpen, 17),
	}
	s[0].Attempts, s[1].Attempts = att(30, false, true, ""), att(33, false, true, "")
	s[2].Reason = "HOLD by the owner: wait for the DBA's window"
	s[3].Attempts, s[4].Attempts = att(39, true, false, boardview.Healthy), att(40, true, false, boardview.Suspect)
	s[5].Reason, s[5].Attempts = "depends on #15, still open", att(41, true, false, boardview.Stalled)
	return boardview.Board{Version: boardview.Version, Repo: "acme/ledger", URL: u,
		Inbox: []boardview.InboxItem{
			{Kind: "gate", Subject: "#14 Backfill existing postings", Question: "Backfill before the unique index, or after?",
				Choices: []string{"before", "after"}, Reply: "/aep resolve G2 before", URL: u + "/issues/14", Since: boardTime.Add(-26 * time.Hour)},
			{Kind: "stall", Subject: "#17 Payout retries reuse the key", Question: "PR #41 has no new evidence for 3 days", URL: u + "/pull/41", Since: boardTime.Add(-72 * time.Hour)},
		},
		Increments:   []boardview.Increment{{Number: 3, Title: "v1.4 — Idempotent ledger", URL: u + "/milestone/3", Open: true, Stories: s}},
		Certificates: []boardview.Certificate{{Unit: 12, PR: 30, SHA: "3f1c0d9e8b7a65432100fedcba9876543210abcd", URL: u + "/runs/9001", At: boardTime.Add(-5 * time.Hour)}},
	}
}

// secretBoard is the board of the repository alice may not read.
func secretBoard() boardview.Board {
	u := "https://github.com/acme/secret"
	return boardview.Board{Version: boardview.Version, Repo: "acme/secret", URL: u, Increments: []boardview.Increment{{
		Number: 1, Title: "Secret acquisition", URL: u + "/milestone/1", Open: true,
		Stories: []boardview.Story{{Number: 1, Title: "Merge with Initech", URL: u + "/issues/1", State: boardview.StateOpen}},
	}}}
}
