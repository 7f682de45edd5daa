package rundoc

import (
	"fmt"
	"testing"
)

// TestIDIndex holds the index to a map: IDs added one at a time from an
// index sized for none (so that it grows), each found where it was added,
// and IDs never added not found.
func TestIDIndex(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 1000} {
		x := newIDIndex(0)
		var items []Item
		want := map[string]int{}
		for k := range n {
			id := fmt.Sprintf("P%d-T%d", k%7, k)
			items = append(items, Item{ID: id})
			x.add(items, k)
			want[id] = k
		}
		for id, k := range want {
			if got, ok := x.lookup(items, id); !ok || got != k {
				t.Errorf("n=%d: lookup(%q) = %d, %v; want %d, true", n, id, got, ok, k)
			}
		}
		for _, id := range []string{"", "P0-T", "missing", fmt.Sprintf("P0-T%d", n)} {
			if k, ok := x.lookup(items, id); ok {
				t.Errorf("n=%d: lookup(%q) = %d, true; want not found", n, id, k)
			}
		}
		if full := 2 * len(items); full > len(x.slots) {
			t.Errorf("n=%d: %d slots hold %d items: more than half full", n, len(x.slots), len(items))
		}
	}
	var zero idIndex
	if _, ok := zero.lookup(nil, "P0-T1"); ok {
		t.Error("an empty index found an ID")
	}
}
