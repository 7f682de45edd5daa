package lint

import (
	"fmt"
	"strings"
)

// rules lists the rules in report order with aepkit's header for n findings.
var rules = []struct {
	rule   string
	header func(n int) string
}{
	{"L1", func(n int) string {
		return fmt.Sprintf("[missing report] %d task(s) in execution-guide.md have no entry in compliance-log.md:", n)
	}},
	{"L2", func(int) string {
		return "[empty guide] execution-guide.md defines no tasks or gates (### <ID> — <title>)."
	}},
	{"L3", func(n int) string {
		return fmt.Sprintf("[missing report line] %d task(s) in execution-guide.md have no **Report:** line:", n)
	}},
	{"L4", func(n int) string {
		return fmt.Sprintf("[orphan report] %d entry(ies) in compliance-log.md have no task or gate in execution-guide.md:", n)
	}},
	{"L5", func(n int) string {
		return fmt.Sprintf("[gate w/o negative control] %d gate(s) don't mention a negative control:", n)
	}},
	{"L6", func(n int) string {
		return fmt.Sprintf("[done without evidence] %d report(s) marked DONE in compliance-log.md have no pasted Verify output (the protocol records these as FAILED):", n)
	}},
	{"L7", func(n int) string {
		return fmt.Sprintf("[phase order] %d report(s) in a phase started before every earlier phase was APPROVED:", n)
	}},
	{"L8", func(n int) string {
		return fmt.Sprintf("[duplicate content] %d paragraph(s) repeated verbatim in compliance-log.md:", n)
	}},
	{"L9", nil},
	{"L10", func(n int) string {
		return fmt.Sprintf("[plan unfilled] %d field(s) in plan-of-record.md are unfilled while work is being reported:", n)
	}},
	{"L11", func(n int) string {
		return fmt.Sprintf("[deferred open] %d deferred item(s) in plan-of-record.md are still open while their phase is being closed:", n)
	}},
}

// evidenceHint follows the L6 list.
const evidenceHint = "  Paste the literal command output under **Verify output:** inside a ``` code block; a sentence about the result is not output."

// annexAdvice follows the L9 count.
const annexAdvice = "This usually means a phase's plan was under-verified before work started, not that it hit unusual surprises. Worth naming as a planning finding, not only fixing task by task."

// Text renders the result as aepkit prints it, ending with a newline.
func (r Result) Text() string {
	if len(r.Problems) == 0 {
		return "clean — no cross-document gaps found.\n"
	}
	var b strings.Builder
	n := 0
	for _, p := range r.Problems {
		n += len(p.ID) + len(p.Excerpt) + 16
	}
	b.Grow(n + 1024)
	counts := map[string]int{}
	for _, p := range r.Problems {
		counts[p.Rule]++
	}
	for _, rule := range rules {
		count := counts[rule.rule]
		if count == 0 {
			continue
		}
		switch rule.rule {
		case "L2":
			b.WriteString(rule.header(1) + "\n")
		case "L9":
			r.writeAnnex(&b)
		default:
			b.WriteString(rule.header(count) + "\n")
			r.writeItems(&b, rule.rule)
			if rule.rule == "L6" {
				b.WriteString(evidenceHint + "\n")
			}
		}
	}
	fmt.Fprintf(&b, "\n%d issue(s) found.\n", len(r.Problems))
	return b.String()
}

// writeItems writes the "  - " line of every problem of one rule, in the
// order the problems have.
func (r Result) writeItems(b *strings.Builder, rule string) {
	for _, p := range r.Problems {
		if p.Rule != rule {
			continue
		}
		b.WriteString("  - ")
		if p.Rule == "L8" {
			fmt.Fprintf(b, "x%d: %s", p.Count, p.Excerpt)
		} else {
			b.WriteString(p.ID)
		}
		b.WriteByte('\n')
	}
}

func (r Result) writeAnnex(b *strings.Builder) {
	fmt.Fprintf(b, "[annex count] %d annexes exceeds the threshold of %d. %s\n", r.AnnexTotal, r.AnnexThreshold, annexAdvice)
	if len(r.AnnexGroups) > 1 || (len(r.AnnexGroups) == 1 && r.AnnexGroups[0].Name != "General") {
		for _, g := range r.AnnexGroups {
			fmt.Fprintf(b, "  - %s: %d annex(es)\n", g.Name, g.Count)
		}
	}
}
