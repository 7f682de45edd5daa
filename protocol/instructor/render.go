package instructor

import (
	"fmt"
	"strings"
)

// FateRows renders the fate of every approval of d as the rows of a
// Markdown table (FateHeader), one per approval in d's order, for the
// summaries of aepgate/audit and aepgate/gates. Logins and references
// come from outside: "|", backticks and line breaks in them cannot break
// the table.
func FateRows(d Decision) string {
	var b strings.Builder
	for _, f := range d.Fates {
		head := f.Head
		if len(head) > 7 {
			head = head[:7]
		}
		fate := string(f.Outcome)
		if f.Reason != "" {
			fate += ": " + f.Reason
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell("@"+f.Login), cell(string(f.Kind)), code(head), cell(fate))
	}
	return b.String()
}

// FateHeader is the header of the table FateRows fills.
const FateHeader = "| Who | What | On | Fate |\n|---|---|---|---|\n"

// FateSummary says how many distinct people counted and how many were
// needed. More may count than are needed: the count is never written as a
// share of the need ("2 of 1").
func FateSummary(d Decision) string {
	if d.Enough() {
		return fmt.Sprintf("%s counted; %d needed.", approvals(len(d.Counted)), d.Needed)
	}
	return fmt.Sprintf("%d of %s needed counted: %d more from people with write permission who neither are agents nor instructed one.", len(d.Counted), approvals(d.Needed), d.Needed-len(d.Counted))
}

// approvals is n independent approvals, in the singular for one.
func approvals(n int) string {
	if n == 1 {
		return "1 independent approval"
	}
	return fmt.Sprintf("%d independent approvals", n)
}

func cell(s string) string {
	r := strings.NewReplacer("|", "\\|", "\r", " ", "\n", " ", "`", "'", "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

func code(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + strings.ReplaceAll(s, "`", "") + "`"
}
