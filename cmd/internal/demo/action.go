package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aepgate/aepgate/action"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/scaffold"
)

// runDocs are the scaffolded run documents on main, by path (what
// `aepgate init` writes).
func runDocs() map[string]string {
	out := map[string]string{}
	for _, f := range scaffold.Render("widgets") {
		out["docs/run/"+f.Path] = string(f.Content)
	}
	return out
}

// runAction runs the GitHub Action's own code (action.Run, what `aepgate
// action` runs in a workflow) in-process on the pull request's head, with
// a workspace holding tree (the head's files) and an Actions token that
// may write checks. It returns the step's exit code and log.
func (w *world) runAction(ctx context.Context, s *scene, tree map[string]string) (int, string, error) {
	dir, err := os.MkdirTemp(w.tmp, "action-")
	if err != nil {
		return 0, "", fmt.Errorf("action workspace: %w", err)
	}
	ws := filepath.Join(dir, "workspace")
	for p, content := range tree {
		if err := writeFile(filepath.Join(ws, filepath.FromSlash(p)), content); err != nil {
			return 0, "", err
		}
	}
	vars, err := w.actionEnv(s, dir, ws)
	if err != nil {
		return 0, "", err
	}
	o := gh.ActionClientOptions{HTTPClient: w.f.HTTPClient()}
	if w.o.Speed == Real {
		o.WritePause = gh.DefaultWritePause
	}
	var log bytes.Buffer
	code, err := action.Run(ctx, action.Options{Getenv: func(k string) string { return vars[k] }, Stdout: &log,
		GitHub: action.NewConnector(o), Checkout: writtenTree(s.pr.Head())})
	if err != nil {
		return code, log.String(), fmt.Errorf("the Action: %w", err)
	}
	return code, log.String(), nil
}

// writtenTree is the demo's action.Options.Checkout: its workspace is no
// git checkout but the files of the simulated head, which runAction
// writes itself, so it holds exactly the tree of head; the Action may judge
// it for head and for no other commit.
func writtenTree(head string) func(context.Context, action.Event) (string, error) {
	return func(_ context.Context, ev action.Event) (string, error) {
		if ev.SHA != head {
			return "", &action.TreeError{Published: ev.SHA, Workspace: head,
				Why: fmt.Sprintf("the demo wrote the workspace from %s, but the checks would be published on %s", head, ev.SHA)}
		}
		return "The demo's workspace holds the files of the head " + head + ", written from the simulated GitHub.", nil
	}
}

// actionEnv writes the event file into dir and returns the step's
// environment: the GITHUB_* variables a workflow sets and the token input.
func (w *world) actionEnv(s *scene, dir, ws string) (map[string]string, error) {
	event, err := w.prEvent(s)
	if err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(dir, "event.json"), string(event)); err != nil {
		return nil, err
	}
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": repoName, "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_SHA": s.pr.Head(),
		"GITHUB_API_URL": strings.TrimSuffix(w.f.URL(), "/"), "GITHUB_WORKSPACE": ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "7001",
		"INPUT_TOKEN": w.f.ActionsToken(w.repo, map[string]string{"checks": "write", "contents": "read", "pull_requests": "read"}),
	}, nil
}

// prEvent is the pull_request.synchronize payload a workflow gets.
func (w *world) prEvent(s *scene) ([]byte, error) {
	repo := map[string]any{"full_name": repoName}
	n := s.pr.Number()
	b, err := json.Marshal(map[string]any{
		"action": "synchronize", "number": n, "repository": repo,
		"pull_request": map[string]any{
			"number": n, "body": s.workerReport(s.pr.Head()), "user": map[string]any{"login": worker},
			"head": map[string]any{"sha": s.pr.Head(), "ref": s.branch, "repo": repo},
			"base": map[string]any{"sha": w.repo.Head("main"), "ref": "main", "repo": repo},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("action event: %w", err)
	}
	return b, nil
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
