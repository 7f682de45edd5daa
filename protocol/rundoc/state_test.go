package rundoc

import (
	"testing"
	"unsafe"
)

// TestIndexNear holds IndexNear to Index for every ID and every hint, in a
// log whose headings come in and out of board order.
func TestIndexNear(t *testing.T) {
	log := ParseLog(LogFile, "| ID | Verdict |\n|---|---|\n| P0-T1 | APPROVED |\n| P0-T2 | |\n| P1-T1 | |\n\n"+
		"### P0-T2 — DONE\n\n### P0-T1 — DONE\n\n### P0-T1 — APPROVED\n\n### P2-T1 — DONE\n\n### P0-T2 — APPROVED\n\n### P1-T1 — BLOCKED\n")
	ids := []string{"P0-T1", "P0-T2", "P1-T1", "P2-T1", "P9-T9", ""}
	for _, id := range ids {
		wantK, wantOK := log.Index(id)
		for near := -2; near <= len(log.Items())+1; near++ {
			if k, ok := log.IndexNear(id, near); k != wantK || ok != wantOK {
				t.Errorf("IndexNear(%q, %d) = %d, %v; want %d, %v", id, near, k, ok, wantK, wantOK)
			}
		}
	}
	var none *Log
	if _, ok := none.IndexNear("P0-T1", 0); ok {
		t.Error("nil log: IndexNear found an item")
	}
	if got := len(log.Items()); got != 4 {
		t.Errorf("items = %d; want 4", got)
	}
}

// TestUpperWord: a state or verdict word, in any case, comes back as its
// constant (the same bytes, not a copy or a piece of the input); any other
// word comes back uppercased.
func TestUpperWord(t *testing.T) {
	tests := []struct{ in, want string }{
		{"approved", Approved}, {"Done", Done}, {"PENDING", Pending}, {"conditional", Conditional}, {"REJECTED", Rejected},
		{"blocked", "BLOCKED"}, {"", ""}, {"approved.", "APPROVED."},
	}
	for _, tt := range tests {
		// A copy, so that an input spelled like a constant is not the
		// constant itself (the linker shares equal string literals).
		got := upperWord(string([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("upperWord(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if IsVerdict(tt.want) || tt.want == Done || tt.want == Pending {
			if unsafe.StringData(got) != unsafe.StringData(tt.want) {
				t.Errorf("upperWord(%q) is not the constant %s itself", tt.in, tt.want)
			}
		}
	}
}

// Index returns the position of id's Item in Items (the index alone,
// the reference IndexNear is held to), and false when the log
// never names it.
func (l *Log) Index(id string) (int, bool) {
	if l == nil {
		return 0, false
	}
	return l.index.lookup(l.items, id)
}
