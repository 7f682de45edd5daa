package releaserules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/refusal"
)

const commit = "0123456789abcdef0123456789abcdef01234567"

func receiptObj() map[string]any {
	return map[string]any{
		"schemaVersion": 1, "version": "3.4.41", "tag": "v3.4.41", "commit": commit, "state": "adopted",
		"ownerFacingOrchestratorSessionId": "orch-1", "adoptedAt": "2026-11-29T12:00:00Z",
		"adoptions": []any{
			map[string]any{"project": "alpha", "coordinatorSessionId": "c-1"},
			map[string]any{"project": "beta", "coordinatorSessionId": "c-2"},
		},
	}
}

func body(t testing.TB, o map[string]any) string {
	t.Helper()
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return "Release notes.\n\n```json\n" + string(b) + "\n```\n"
}

func TestCheckReceipt(t *testing.T) {
	mismatch := []string{TokenReceiptMismatch}
	invalid := []string{TokenReceiptInvalid}
	tests := []struct {
		name   string
		change func(o map[string]any)
		want   []string
	}{
		{"canonical two-entry receipt", func(map[string]any) {}, nil},
		{"schemaVersion 2", func(o map[string]any) { o["schemaVersion"] = 2 }, mismatch},
		{"schemaVersion 1.0", func(o map[string]any) { o["schemaVersion"] = json.Number("1.0") }, mismatch},
		{"schemaVersion true", func(o map[string]any) { o["schemaVersion"] = true }, mismatch},
		{"other version", func(o map[string]any) { o["version"] = "3.4.36" }, mismatch},
		{"other tag", func(o map[string]any) { o["tag"] = "v3.4.36" }, mismatch},
		{"other commit", func(o map[string]any) { o["commit"] = strings.Repeat("f", 40) }, mismatch},
		{"state draft", func(o map[string]any) { o["state"] = "draft" }, mismatch},
		{"blank orchestrator", func(o map[string]any) { o["ownerFacingOrchestratorSessionId"] = " " }, mismatch},
		{"empty adoptedAt", func(o map[string]any) { o["adoptedAt"] = "" }, mismatch},
		{"unsorted adoptions", func(o map[string]any) {
			l := o["adoptions"].([]any)
			o["adoptions"] = []any{l[1], l[0]}
		}, mismatch},
		{"duplicate project", func(o map[string]any) {
			o["adoptions"] = []any{map[string]any{"project": "alpha", "coordinatorSessionId": "c-1"}, map[string]any{"project": "alpha", "coordinatorSessionId": "c-2"}}
		}, mismatch},
		{"coordinator reused across projects", func(o map[string]any) {
			o["adoptions"] = []any{map[string]any{"project": "alpha", "coordinatorSessionId": "c-1"}, map[string]any{"project": "beta", "coordinatorSessionId": "c-1"}}
		}, mismatch},
		{"extra key", func(o map[string]any) { o["note"] = "x" }, mismatch},
		{"empty adoptions", func(o map[string]any) { o["adoptions"] = []any{} }, mismatch},
		{"entry extra key", func(o map[string]any) {
			o["adoptions"] = []any{map[string]any{"project": "alpha", "coordinatorSessionId": "c-1", "x": "y"}}
		}, mismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := receiptObj()
			tt.change(o)
			got := refusal.Tokens(CheckReceipt(body(t, o), "3.4.41", "v3.4.41", commit))
			if tt.want == nil {
				tt.want = []string{}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("duplicate JSON key", func(t *testing.T) {
		b := body(t, receiptObj())
		b = strings.Replace(b, `"state": "adopted"`, `"state": "adopted", "state": "adopted"`, 1)
		if diff := cmp.Diff(invalid, refusal.Tokens(CheckReceipt(b, "3.4.41", "v3.4.41", commit))); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("two fenced receipts", func(t *testing.T) {
		b := body(t, receiptObj())
		if diff := cmp.Diff(invalid, refusal.Tokens(CheckReceipt(b+b, "3.4.41", "v3.4.41", commit))); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("no receipt", func(t *testing.T) {
		if diff := cmp.Diff(invalid, refusal.Tokens(CheckReceipt("notes only", "3.4.41", "v3.4.41", commit))); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("CRLF body and trailing spaces on the fence", func(t *testing.T) {
		b := strings.ReplaceAll(strings.Replace(body(t, receiptObj()), "```json", "```json \t", 1), "\n", "\r\n")
		if got := CheckReceipt(b, "3.4.41", "v3.4.41", commit); len(got) != 0 {
			t.Errorf("refused: %v", got)
		}
	})
	t.Run("json inside another fenced block is not a receipt", func(t *testing.T) {
		b := "```text\n```json\n{}\n```\n" + body(t, receiptObj())
		if got := CheckReceipt(b, "3.4.41", "v3.4.41", commit); len(got) != 0 {
			t.Errorf("refused: %v", got)
		}
	})
}

func FuzzCheckReceipt(f *testing.F) {
	f.Add(body(f, receiptObj()))
	f.Add("```json\n{\"a\":1,\"a\":2}\n```")
	f.Fuzz(func(t *testing.T, b string) {
		rs := CheckReceipt(b, "3.4.41", "v3.4.41", commit)
		if len(rs) > 1 {
			t.Fatalf("more than one receipt refusal: %v", rs)
		}
		if len(rs) == 0 {
			block, err := FindReceipt(b)
			if err != nil || !strings.Contains(block, commit) {
				t.Fatalf("accepted a receipt without its block or commit: %q", b)
			}
		}
	})
}
