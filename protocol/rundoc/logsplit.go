package rundoc

import (
	"strings"
	"sync"
)

// splitLog parses src in two halves at once: the first half on this
// goroutine, the second from a report heading near the middle on another,
// as if that heading began the document after the status board. The
// second half's parse is the whole parse's when the first half ends outside
// any fenced block and after the status board began, which is what a log
// of reports is; ok is false otherwise (the caller parses it whole) and
// when src has no report heading to split at.
//
// The halves share nothing but src: each has its own scanner (line numbers
// and offsets as in the whole document), parser and fences, joined once
// both are done. When it declines after parsing, spare holds the arrays
// it sized for the whole log, empty, for the one pass to fill.
func splitLog(file, src string) (l *Log, spare logArrays, ok bool) {
	at, line, ok := splitPoint(src)
	if !ok {
		return nil, logArrays{}, false
	}
	return splitAt(file, src, at, line)
}

// splitAt is splitLog at offset at, the start of line index line, which
// holds a report heading.
func splitAt(file, src string, at, line int) (*Log, logArrays, bool) {
	// Both halves fill one array each of headings and fences: the first
	// from the start, the second from the first's upper bound (its count of
	// markers), so joining them is one copy within the array. The second
	// half counts its own markers and tells the first.
	type bounds struct{ headings, fences int }
	counted := make(chan bounds, 1)
	var first bounds // counted below, while the second half counts its own
	var (
		heads  []Heading
		found  []Fence
		sized  = make(chan struct{})
		second = &Log{File: file, src: src}
		q      *logParser
		wg     sync.WaitGroup
	)
	wg.Go(func() {
		counted <- bounds{strings.Count(src[at:], "###"), fenceBound(src[at:])}
		<-sized
		q = &logParser{log: second, sc: newScanner(src, true, true).from(at, line, len(src)), cur: -1}
		second.Headings, q.sc.found = heads[first.headings:first.headings], found[first.fences:first.fences]
		q.board.done = true // assumed: checked against the first half below
		q.run()
	})
	first = bounds{strings.Count(src[:at], "###"), fenceBound(src[:at])}
	theirs := <-counted
	heads = make([]Heading, 0, first.headings+theirs.headings)
	found = make([]Fence, 0, first.fences+theirs.fences)
	close(sized)
	l := &Log{File: file, src: src, Headings: heads[:0:first.headings]}
	p := &logParser{log: l, sc: newScanner(src, true, true).from(0, 0, at), cur: -1}
	p.sc.found = found[:0:first.fences]
	p.run()
	wg.Wait()
	if p.sc.inFence || !p.board.done && !p.board.reading {
		// The heading is inside a block, or the board comes later.
		return nil, logArrays{heads[:0], found[:0]}, false
	}
	// The split line is a report heading: it ends the first half's open
	// report, as it would in one pass.
	p.endReport(line)
	mine, _ := p.sc.finish()
	theirFences, unclosed := q.sc.finish()
	q.endReport(q.sc.i + 1)
	shiftFences(second.Headings, int32(len(mine)))
	l.Headings = join(heads, first.headings, l.Headings, second.Headings)
	p.finish(join(found, first.fences, mine, theirFences), unclosed)
	return l, logArrays{}, true
}

// shiftFences moves the fence spans of the headings' evidence by shift, the
// count of fences before them.
func shiftFences(hs []Heading, shift int32) {
	for k := range hs {
		if e := &hs[k].Evidence; e.Line != 0 {
			e.Fences = Span{e.Fences.From + shift, e.Fences.To + shift}
		}
	}
}

// join returns a's elements then b's, where a was filled from the start of
// all and b from all[n:]: in place, with one copy within all. The bounds
// hold (a heading starts with its own "###", a fenced block with its own
// fence), so neither outgrows its part; were one to, it would have grown
// into an array of its own, and join appends instead.
func join[T any](all []T, n int, a, b []T) []T {
	if !within(all, 0, a) || !within(all, n, b) {
		return append(a[:len(a):len(a)], b...)
	}
	out := all[:len(a)+len(b)]
	copy(out[len(a):], b)
	return out
}

// within reports whether s is empty or starts at all[at].
func within[T any](all []T, at int, s []T) bool {
	return len(s) == 0 || at < cap(all) && &all[:cap(all)][at] == &s[0]
}

// splitPoint finds the first report heading ("### ID — WORD") at or after
// the middle of src: its offset and 0-based line index.
func splitPoint(src string) (at, line int, ok bool) {
	from := len(src) / 2
	for from < len(src) {
		k := strings.Index(src[from:], "\n###")
		if k < 0 {
			return 0, 0, false
		}
		at = from + k + 1
		end := strings.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src) - at
		}
		if _, _, ok := logHeading(src[at : at+end]); ok {
			return at, strings.Count(src[:at], "\n"), true
		}
		from = at
	}
	return 0, 0, false
}
