package rundoc

import "hash/maphash"

// idIndex finds an ID's position in a log's items. It is a hash table of
// positions, kept at most half full and probed linearly, that reads the
// IDs from the items: 4 bytes a slot where a map[string]int spends about
// 25 an entry. Positions are int32: a log has fewer items than bytes, and
// it is under 1 GiB (see Files). The seed is random per index, so no text
// can be written to make its IDs collide.
type idIndex struct {
	seed  maphash.Seed
	slots []int32 // position+1 of an item; 0 is an empty slot
}

// newIDIndex returns an index sized for n items.
func newIDIndex(n int) idIndex {
	x := idIndex{seed: maphash.MakeSeed()}
	x.slots = make([]int32, slotsFor(n))
	return x
}

// slotsFor is the table size for n items: a power of two, at least 2n.
func slotsFor(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}

// lookup returns the position of id's item.
func (x *idIndex) lookup(items []Item, id string) (int, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for i := maphash.String(x.seed, id) & mask; ; i = (i + 1) & mask {
		switch p := x.slots[i]; {
		case p == 0:
			return 0, false
		case items[p-1].ID == id:
			return int(p - 1), true
		}
	}
}

// add indexes items[k], the last item, whose ID is not indexed yet. The
// table doubles when it would be more than half full.
func (x *idIndex) add(items []Item, k int) {
	if 2*(k+1) > len(x.slots) {
		x.slots = make([]int32, slotsFor(k+1))
		for j := range k {
			x.put(items[j].ID, j)
		}
	}
	x.put(items[k].ID, k)
}

// put stores position k for id in the first empty slot of its probe.
func (x *idIndex) put(id string, k int) {
	mask := uint64(len(x.slots) - 1)
	i := maphash.String(x.seed, id) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = int32(k) + 1
}
