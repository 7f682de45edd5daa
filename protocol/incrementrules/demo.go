package incrementrules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
)

// DemoInfo is the info string of a fenced block that demonstrates an
// increment.
const DemoInfo = "aep-demo"

// The kinds of demonstration evidence the App can read back.
const (
	EvidenceRun        = "run"
	EvidenceDeployment = "deployment"
	EvidenceRelease    = "release"
)

// maxDemoText bounds a demo block's values, as the gate blocks' texts are.
const maxDemoText = 800

// Evidence is what a demonstration names: a workflow run ID, a deployment
// ID or a release tag.
type Evidence struct {
	Kind string `json:"kind"`
	// ID is the run or deployment ID; Tag the release tag.
	ID  int64  `json:"id,omitempty"`
	Tag string `json:"tag,omitempty"`
}

// Key is the evidence as the block writes it ("run 123", "release v1.0.0").
func (e Evidence) Key() string {
	if e.Kind == EvidenceRelease {
		return e.Kind + " " + e.Tag
	}
	return e.Kind + " " + strconv.FormatInt(e.ID, 10)
}

// Demo is one aep-demo block: which milestone it demonstrates, the
// criterion it repeats and its evidence.
type Demo struct {
	// Line is the 1-based line of the block's opening fence.
	Line      int
	Milestone int
	Criterion string
	Evidence  Evidence
	// Err says why the block is malformed; nil when it is well formed.
	Err error
}

// ParseDemos returns the aep-demo blocks of a comment body, each of three
// lines "milestone: <number>", "criterion: <text>" and "evidence: run <id>
// | deployment <id> | release <tag>", in any order, each once; anything
// else makes the block malformed (Err). Values are trimmed of surrounding
// spaces and otherwise kept byte for byte.
func ParseDemos(body string) []Demo {
	var out []Demo
	for _, b := range command.FencedBlocks(body, DemoInfo) {
		d := parseDemo(b.Text)
		d.Line = b.Line
		out = append(out, d)
	}
	return out
}

// parseDemo reads one block's text.
func parseDemo(text string) Demo {
	var d Demo
	seen := map[string]bool{}
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case !ok:
			return bad("line %q is not \"key: value\"", clip(line))
		case seen[key]:
			return bad("%s is given twice", key)
		case len(value) > maxDemoText || value == "":
			return bad("%s must be 1 to %d characters", key, maxDemoText)
		}
		seen[key] = true
		if err := d.set(key, value); err != nil {
			return Demo{Err: err}
		}
	}
	for _, k := range []string{"milestone", "criterion", "evidence"} {
		if !seen[k] {
			return bad("%s is missing", k)
		}
	}
	return d
}

// set reads one field of the block.
func (d *Demo) set(key, value string) error {
	switch key {
	case "milestone":
		n, err := strconv.Atoi(strings.TrimPrefix(value, "#"))
		if err != nil || n <= 0 || strings.ContainsAny(value, "+-") {
			return fmt.Errorf("aep-demo: milestone %q is not a milestone number", clip(value))
		}
		d.Milestone = n
	case "criterion":
		d.Criterion = value
	case "evidence":
		e, err := parseEvidence(value)
		if err != nil {
			return err
		}
		d.Evidence = e
	default:
		return fmt.Errorf("aep-demo: unknown field %q (allowed: milestone, criterion, evidence)", clip(key))
	}
	return nil
}

// parseEvidence reads "run <id>", "deployment <id>" or "release <tag>".
func parseEvidence(value string) (Evidence, error) {
	f := strings.Fields(value)
	if len(f) != 2 {
		return Evidence{}, fmt.Errorf("aep-demo: evidence %q is not \"run <id>\", \"deployment <id>\" or \"release <tag>\"", clip(value))
	}
	switch f[0] {
	case EvidenceRun, EvidenceDeployment:
		id, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || id <= 0 || strings.HasPrefix(f[1], "+") {
			return Evidence{}, fmt.Errorf("aep-demo: %s %q is not an ID", f[0], clip(f[1]))
		}
		return Evidence{Kind: f[0], ID: id}, nil
	case EvidenceRelease:
		return Evidence{Kind: f[0], Tag: f[1]}, nil
	}
	return Evidence{}, fmt.Errorf("aep-demo: evidence kind %q is not run, deployment or release", clip(f[0]))
}

func bad(format string, args ...any) Demo {
	return Demo{Err: fmt.Errorf("aep-demo: "+format, args...)}
}

// clip cuts s for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return strings.ToValidUTF8(s[:60], "") + "…"
	}
	return s
}
