package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// playAttacks: the pull request of the happy story meets eight attacks,
// each refused with the refusal shown — among them the coordinator's
// closure of the story it depends on and a deploy of an uncertified
// commit — and still ends certified, as the owner's board shows.
func playAttacks(ctx context.Context, w *world) error {
	st := newStory(ctx, w)
	st.dependsOnAPI = true
	gate := "```aep-gate\nid: schema-change\nquestion: Drop the legacy export column?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\n```\n"
	err := st.playBeats(st.setup(), st.increment(), st.openPR(),
		st.closedWithoutEvidence(), st.ownerCloses(),
		st.gateOpened(gate),
		st.commandRefused("mallory (write access, not an owner) comments '/aep resolve schema-change approve': refused", intruder, 3, "/aep resolve schema-change approve"),
		st.resolved(), st.hold(),
		st.forgedWebhook(),
		st.commandRefused("olivia[bot] (a Bot named like the owner) comments '/aep resume': refused", owner+"[bot]", 1, "/aep resume"),
		st.editedCommand(),
		st.resume(),
		st.passAt("carol audits PR head 1: PASS"),
		st.staleAudit(),
		st.passAt("carol audits PR head 2: PASS, bound to the new head"),
		st.mergePR(), st.prCIAsReadback(), st.mainCI(), st.uncertifiedDeploy(), st.keepsBoard())
	st.expects = append(st.headExpects("PR head 2")[:4], st.deliveredExpects()...)
	return err
}

// gateOpened is the coordinator opening an owner gate on the pull request.
func (st *story) gateOpened(block string) beat {
	return beat{title: "cody (coordinator) opens gate schema-change on the pull request: 'Drop the legacy export column?'",
		act:   func() error { st.s.pr.Comment(coord, "Before merging:\n\n"+block); return nil },
		until: func() bool { return st.w.is(st.s.pr.Head(), "aepgate/gates", "action_required")() },
		what:  "aepgate/gates action_required"}
}

// resolved is the owner's answer to the gate.
func (st *story) resolved() beat {
	return beat{title: "olivia (owner) comments '/aep resolve schema-change approve'",
		act:   func() error { st.s.pr.Comment(owner, "/aep resolve schema-change approve"); return nil },
		until: func() bool { return st.w.is(st.s.pr.Head(), "aepgate/gates", "success")() },
		what:  "aepgate/gates success"}
}

// forgedWebhook posts an owner's '/aep resume' straight to the App, signed
// with a secret that is not the App's.
func (st *story) forgedWebhook() beat {
	var answer string
	return beat{title: "an attacker posts a forged issue_comment webhook ('olivia: /aep resume') to the App, signed with a guessed secret", refused: true,
		act: func() error {
			body, _ := json.Marshal(map[string]any{"action": "created", "installation": map[string]any{"id": st.w.inst.ID},
				"repository": map[string]any{"name": "widgets", "full_name": repoName, "owner": map[string]any{"login": "acme"}},
				"issue":      map[string]any{"number": st.s.unit.Number()},
				"comment":    map[string]any{"id": 999999, "body": "/aep resume", "user": map[string]any{"login": owner, "type": "User"}},
				"sender":     map[string]any{"login": owner, "type": "User"}})
			req, err := http.NewRequestWithContext(st.ctx, http.MethodPost, st.w.base+"/webhook", bytes.NewReader(body))
			if err != nil {
				return err
			}
			req.Header.Set("X-GitHub-Event", "issue_comment")
			req.Header.Set("X-GitHub-Delivery", "forged-1")
			req.Header.Set("X-Hub-Signature-256", ghfake.Sign("guessed-secret", body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return fmt.Errorf("forged webhook: %w", err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			if resp.StatusCode != http.StatusUnauthorized {
				return fmt.Errorf("forged webhook answered %d, want 401", resp.StatusCode)
			}
			answer = fmt.Sprintf("the App answered HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(b)))
			return nil
		},
		detail: func() (string, error) { return st.unchanged(answer, "action_required") }}
}

// unchanged checks that aepgate/gates still concludes want and adds it to
// what the step shows.
func (st *story) unchanged(what, want string) (string, error) {
	if got := st.gatesState(); got != want {
		return "", fmt.Errorf("aepgate/gates is %s after a refused attack, want %s", got, want)
	}
	return what + "\naepgate/gates is still " + want, nil
}
