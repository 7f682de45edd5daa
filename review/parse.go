package review

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
)

// Parse reads the one fenced aep-audit block of a review body (outside
// quotes; see command.FencedBlocks) and checks it against the schema and
// the verdict rules. No block, several blocks or a block that is not JSON or
// YAML give a nil audit; a block with problems gives the audit as far as it
// could be read, with every problem. The audit is valid only when no
// problem is returned.
func Parse(body string) (*Audit, Problems) { return ParseWith(body, DefaultVerdictRules()) }

// ParseWith is Parse with the given verdict rules (a negative control
// leaves one out).
func ParseWith(body string, rules []VerdictRule) (*Audit, Problems) {
	blocks := blocksOf(body)
	switch {
	case len(blocks) == 0:
		return nil, Problems{{"$", "the review has no aep-audit block; an audit is one fenced block with the info string aep-audit (https://github.com/aepgate/aepgate/blob/main/docs/audit.md)"}}
	case len(blocks) > 1:
		lines := make([]string, len(blocks))
		for i, b := range blocks {
			lines[i] = fmt.Sprint(b.Line)
		}
		return nil, Problems{{"$", fmt.Sprintf("the review has %d aep-audit blocks (at lines %s); it must hold exactly one", len(blocks), strings.Join(lines, ", "))}}
	}
	return parseBlock(blocks[0].Text, blocks[0].Line+1, rules)
}

// ParseBlock is Parse for the text inside the fence; YAML problems count
// its first line as line 1.
func ParseBlock(text string) (*Audit, Problems) { return parseBlock(text, 1, DefaultVerdictRules()) }

// parseBlock reads the block whose first line is line first of the body.
func parseBlock(text string, first int, rules []VerdictRule) (*Audit, Problems) {
	if len(text) > MaxBlockBytes {
		return nil, Problems{{"$", fmt.Sprintf("the block is %d bytes; at most %d", len(text), MaxBlockBytes)}}
	}
	tree, err := readTree(text, first)
	if err != nil {
		return nil, Problems{{"$", err.Error()}}
	}
	d := &decoder{}
	a := d.decodeAudit(tree)
	if tree.kind != kObject {
		return nil, d.probs
	}
	ps := append(d.probs, a.rules()...)
	return a, append(ps, verdictProblems(a, rules)...)
}

// HasBlock reports whether body holds an aep-audit block outside quotes,
// well formed or not.
func HasBlock(body string) bool { return len(blocksOf(body)) > 0 }

func blocksOf(body string) []command.Block {
	if !strings.Contains(strings.ToLower(body), Info) {
		return nil
	}
	return command.FencedBlocks(body, Info)
}
