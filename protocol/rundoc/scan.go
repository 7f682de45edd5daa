package rundoc

import "strings"

// scanner walks a normalized document line by line, once, and knows for
// each line whether it belongs to a fenced block. It is how the guide and
// the log are parsed: no per-line index is built, so a large document costs
// little beyond its own text.
type scanner struct {
	src    string
	fences bool // locate fenced blocks (off only in the negative-control test)
	keep   bool // keep every fenced block, not only the last

	end    int    // where the scan stops: len(src), or a line start (splitLog)
	i      int    // current line index (0-based), -1 before the first
	off    int    // current line's offset
	next   int    // next line's offset; len(src)+1 after a last line without newline
	line   string // current line without its newline
	last   bool   // the current line is the last
	fenced bool   // the current line belongs to a fenced block, fence lines included
	opened bool   // the current line opens a fenced block

	inFence bool
	fch     byte
	fn      int
	found   []Fence // every fenced block, in document order
	content int     // offset of the open block's content
}

// newScanner starts a scan of src, already normalized (see normalize).
// With keep set, finish returns every fenced block; otherwise only the
// last is kept (enough to report one left unclosed).
func newScanner(src string, fences, keep bool) *scanner {
	return &scanner{src: src, fences: fences, keep: keep, i: -1, end: len(src)}
}

// from starts the scan at offset off, the start of line index i, and stops
// it at end, a line start or len(src): a part of the document, with line
// numbers and offsets as in the whole.
func (s *scanner) from(off, i, end int) *scanner {
	s.next, s.i, s.end = off, i-1, end
	return s
}

// normalize reads CRLF and lone CR as LF, as Python's universal newlines
// do, and drops a leading byte-order mark.
func normalize(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return s
}

// scan advances to the next line, reporting false after the last.
func (s *scanner) scan() bool {
	if s.last {
		return false
	}
	s.i++
	s.off = s.next
	if s.off < s.end && s.src[s.off] == '\n' {
		// A blank line, a third of a typical log's: nothing to search
		// for, and it neither opens nor closes a fenced block.
		s.line, s.next = "", s.off+1
		s.last = s.next >= s.end
		s.opened, s.fenced = false, s.inFence
		return true
	}
	s.line, s.next = s.src[s.off:s.end], s.end+1
	if k := strings.IndexByte(s.line, '\n'); k >= 0 {
		s.line, s.next = s.line[:k], s.off+k+1
	}
	// A final newline ends the last line; it does not start another.
	s.last = s.next >= s.end
	s.opened = false
	if s.fences {
		s.fence()
	}
	return true
}

// fence updates the fence state for the current line (CommonMark: a block
// opened by three or more backticks or tildes runs to a closing line of at
// least as many, or to the end of the document).
func (s *scanner) fence() {
	// Most lines start with neither an indent nor a fence character: such
	// a line opens and closes no block, and is not worth a call to say so.
	var first byte
	if s.line != "" {
		first = s.line[0]
	}
	maybe := first == ' ' || first == '\t' || first == '`' || first == '~'
	if s.inFence {
		s.fenced = true
		if maybe && fenceClose(s.line, s.fch, s.fn) {
			f := &s.found[len(s.found)-1]
			f.End, f.Closed, f.Content = s.lineNo(), true, s.between(s.content, s.off)
			s.inFence = false
		}
		return
	}
	if !maybe {
		s.fenced, s.opened = false, false
		return
	}
	ch, n, ok := fenceOpen(s.line)
	s.fenced, s.opened = ok, ok
	if ok {
		s.inFence, s.fch, s.fn, s.content = true, ch, n, s.next
		if !s.keep {
			s.found = s.found[:0]
		}
		s.found = append(grow(s.found), Fence{Line: s.lineNo()})
	}
}

// finish closes the scan: a block still open runs to the end of the
// document. It returns the fences and the one left unclosed, if any.
func (s *scanner) finish() (fences []Fence, unclosed *Fence) {
	if s.inFence {
		f := &s.found[len(s.found)-1]
		f.End, f.Content = s.lineNo()+1, s.between(s.content, s.next)
		s.inFence = false
		u := *f
		return s.found, &u
	}
	return s.found, nil
}

// lineNo is the current line's 1-based number.
func (s *scanner) lineNo() int32 { return int32(s.i) + 1 }

// between returns the lines from the line at offset from up to the line at
// offset to, without the newline that ends the last of them ("" when there
// are none).
func (s *scanner) between(from, to int) string {
	if from >= to {
		return ""
	}
	return s.src[from : to-1]
}
