package rundoc

import "testing"

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
