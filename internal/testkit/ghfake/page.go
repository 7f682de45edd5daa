package ghfake

import (
	"fmt"
	"strconv"
	"strings"
)

// GitHub's page sizes: 30 items unless per_page asks otherwise, at most 100.
const (
	DefaultPerPage = 30
	MaxPerPage     = 100
)

// page cuts items to the requested page and sets the Link header (next,
// last, first, prev) the way GitHub does.
func (c *call) page(items []any) []any {
	q := c.r.URL.Query()
	per, err := strconv.Atoi(q.Get("per_page"))
	if err != nil || per <= 0 {
		per = DefaultPerPage
	}
	per = min(per, MaxPerPage)
	pg, err := strconv.Atoi(q.Get("page"))
	if err != nil || pg <= 0 {
		pg = 1
	}
	last := max(1, (len(items)+per-1)/per)
	if links := c.links(pg, last); links != "" {
		c.w.Header().Set("Link", links)
	}
	lo := min((pg-1)*per, len(items))
	hi := min(lo+per, len(items))
	out := items[lo:hi]
	if out == nil {
		out = []any{}
	}
	return out
}

func (c *call) links(pg, last int) string {
	var parts []string
	add := func(n int, rel string) {
		q := c.r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		parts = append(parts, fmt.Sprintf("<%s%s?%s>; rel=%q", c.f.root(), c.r.URL.Path, q.Encode(), rel))
	}
	if pg > 1 {
		add(pg-1, "prev")
	}
	if pg < last {
		add(pg+1, "next")
		add(last, "last")
	}
	if pg > 1 {
		add(1, "first")
	}
	return strings.Join(parts, ", ")
}
