package releaserules

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// Receipt refusal tokens (§2.4).
const (
	TokenReceiptInvalid  = "fleet-adoption-receipt-missing-or-invalid"
	TokenReceiptMismatch = "fleet-adoption-receipt-mismatch"
)

var receiptKeys = []string{"adoptedAt", "adoptions", "commit", "ownerFacingOrchestratorSessionId", "schemaVersion", "state", "tag", "version"}

// FindReceipt returns the content of the release body's one fenced
// ```json block. Fences are whole lines; the opening may carry trailing
// spaces or tabs and lines may end in CRLF. Other fenced blocks are skipped.
// No json block, an unclosed one, or more than one is an error.
func FindReceipt(body string) (string, error) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	var found []string
	for i := 0; i < len(lines); i++ {
		open := strings.TrimRight(lines[i], " \t")
		if !strings.HasPrefix(open, "```") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimRight(lines[end], " \t") != "```" {
			end++
		}
		if open == "```json" {
			if end == len(lines) {
				return "", fmt.Errorf("receipt: the ```json block is not closed")
			}
			found = append(found, strings.Join(lines[i+1:end], "\n"))
		}
		i = end
	}
	if len(found) != 1 {
		return "", fmt.Errorf("receipt: expected exactly one ```json block, found %d", len(found))
	}
	return found[0], nil
}

// CheckReceipt checks the adoption receipt in a final release's body
// against the version, tag and peeled tag commit. It returns no refusal
// when the receipt is canonical and matches.
func CheckReceipt(body, version, tag, commit string) []refusal.Refusal {
	block, err := FindReceipt(body)
	if err != nil {
		return []refusal.Refusal{{Token: TokenReceiptInvalid, Expected: "exactly one ```json receipt block", Seen: err.Error()}}
	}
	obj, err := canonical.ParseObject([]byte(block), canonical.Options{RejectDuplicateKeys: true})
	if err != nil {
		return []refusal.Refusal{{Token: TokenReceiptInvalid, Expected: "a strict JSON object without duplicate keys", Seen: err.Error()}}
	}
	if problem := receiptProblem(obj, version, tag, commit); problem != "" {
		return []refusal.Refusal{{Token: TokenReceiptMismatch, Expected: "a canonical receipt for " + tag + " at " + commit, Seen: problem}}
	}
	return nil
}

func receiptProblem(o map[string]any, version, tag, commit string) string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != strings.Join(receiptKeys, ",") {
		return "keys " + strings.Join(keys, ",") + " (expected exactly " + strings.Join(receiptKeys, ",") + ")"
	}
	if n, ok := o["schemaVersion"].(json.Number); !ok || n.String() != "1" {
		return "schemaVersion is not the integer 1"
	}
	for k, want := range map[string]string{"version": version, "tag": tag, "commit": commit, "state": "adopted"} {
		if s, _ := o[k].(string); s != want {
			return fmt.Sprintf("%s %v (expected %q)", k, o[k], want)
		}
	}
	for _, k := range []string{"ownerFacingOrchestratorSessionId", "adoptedAt"} {
		if !cleanText(o[k]) {
			return k + " is empty or has edge whitespace"
		}
	}
	return adoptionsProblem(o["adoptions"])
}

func adoptionsProblem(v any) string {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return "adoptions is not a non-empty array"
	}
	projects, coords := map[string]bool{}, map[string]bool{}
	prev := [2]string{}
	for i, e := range list {
		a, ok := e.(map[string]any)
		if !ok || len(a) != 2 || !cleanText(a["project"]) || !cleanText(a["coordinatorSessionId"]) {
			return fmt.Sprintf("adoption %d is not exactly {project, coordinatorSessionId} with clean non-empty text", i)
		}
		cur := [2]string{a["project"].(string), a["coordinatorSessionId"].(string)}
		if i > 0 && !(prev[0] < cur[0] || prev[0] == cur[0] && prev[1] < cur[1]) {
			return fmt.Sprintf("adoption %d is out of (project, coordinatorSessionId) order", i)
		}
		if projects[cur[0]] || coords[cur[1]] {
			return fmt.Sprintf("adoption %d repeats a project or coordinator", i)
		}
		projects[cur[0]], coords[cur[1]], prev = true, true, cur
	}
	return ""
}

func cleanText(v any) bool {
	s, ok := v.(string)
	return ok && s != "" && strings.TrimSpace(s) == s
}
