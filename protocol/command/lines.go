package command

import "strings"

// class says how a reader sees one line of a comment.
type class int

const (
	classText   class = iota // prose (or blank) outside every container below
	classFence               // an opening or closing fence line
	classCode                // inside a fenced code block
	classQuote               // a block quote line or its lazy continuation
	classHTML                // an HTML comment or HTML block
	classIndent              // indented four columns or more (code or continuation)
	classList                // a list item line or its lazy continuation
	classTable               // a table row (header, delimiter or body)
)

// fence is one fenced code block outside quotes.
type fence struct {
	info   string   // first word of the info string, lower case
	open   int      // 1-based line of the opening fence
	body   []string // content lines
	body0  int      // 1-based line of the first content line
	indent int      // columns of indentation before the opening fence
}

// scanner walks the lines of a comment once and classifies each.
type scanner struct {
	lines   []string
	classes []class
	fences  []fence

	open int      // index+1 in fences of the open fenced block, 0 when none
	ch   byte     // the open fence's character
	n    int      // the open fence's length
	html htmlKind // the kind of the open HTML block, 0 when none
	para bool     // a paragraph is open (cleared when in doubt)
	// cont is the class of the container the next non-blank line continues
	// lazily (a quote, a list item or a table); classText when none.
	cont class
	// inList is set by a blank line after a list item: an indented line
	// may still continue the item.
	inList bool
}

// splitLines splits on CommonMark line endings: \n, \r\n and a lone \r.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
}

// scan classifies every line of body (CommonMark rules, simplified towards
// excluding: when in doubt a line is not prose).
func scan(body string) *scanner {
	sc := &scanner{lines: splitLines(body)}
	sc.classes = make([]class, len(sc.lines))
	for i, line := range sc.lines {
		sc.classes[i] = sc.step(i, line)
	}
	return sc
}

// step classifies line i given what the lines before it opened.
func (sc *scanner) step(i int, line string) class {
	inPara := sc.para
	sc.para = false
	switch {
	case sc.open > 0:
		s, shallow := unindent(line)
		return sc.inFence(line, s, shallow)
	case sc.html != 0:
		return sc.htmlLine(line)
	case blank(line):
		sc.inList = sc.inList || sc.cont == classList
		sc.cont = classText
		return classText
	case sc.inList && (line[0] == ' ' || line[0] == '\t'):
		sc.cont = classList
		return classList
	}
	sc.inList = false
	return sc.block(i, line, inPara)
}

// block classifies a non-blank line outside fences and HTML blocks; inPara
// says the line before it was a paragraph's.
func (sc *scanner) block(i int, line string, inPara bool) class {
	s, shallow := unindent(line)
	switch {
	case shallow && isFence(s):
		sc.cont, sc.ch, sc.n = classText, s[0], fenceLen(s)
		sc.fences = append(sc.fences, fence{info: infoWord(s[sc.n:]), open: i + 1, body0: i + 2, indent: len(line) - len(s)})
		sc.open = len(sc.fences)
		return classFence
	case shallow && isDelimiterRow(s):
		if i > 0 && sc.classes[i-1] == classText {
			sc.classes[i-1] = classTable
		}
		sc.cont = classTable
		return classTable
	}
	if k := sc.htmlOpens(s, shallow, inPara); k != 0 {
		sc.cont, sc.html = classText, k
		return sc.htmlLine(s)
	}
	switch {
	case sc.cont != classText:
		if shallow && isListItem(s) {
			sc.cont = classList // a list may interrupt; after a blank line its item goes on
		}
		return sc.cont
	case !shallow:
		sc.para = inPara // a paragraph's continuation, or indented code
		return classIndent
	case s[0] == '>':
		sc.cont = classQuote
		return classQuote
	case isListItem(s):
		sc.cont = classList
		return classList
	}
	sc.para = !mayCloseParagraph(s)
	return classText
}

// htmlOpens returns the kind of HTML block the line (s unindented) opens,
// 0 when none. Kinds 1 to 6 interrupt a paragraph, also one a quote, a
// list item or a table continues lazily; kind 7 interrupts none.
func (sc *scanner) htmlOpens(s string, shallow, inPara bool) htmlKind {
	if !shallow {
		return 0
	}
	return htmlStart(s, inPara || sc.cont != classText)
}

// inFence classifies a line inside an open fenced block: the closing fence
// or content.
func (sc *scanner) inFence(line, s string, shallow bool) class {
	if shallow && closesFence(s, sc.ch, sc.n) {
		sc.open = 0
		return classFence
	}
	f := &sc.fences[sc.open-1]
	f.body = append(f.body, dropIndent(line, f.indent))
	return classCode
}

// htmlLine classifies a line of an open HTML block (its first line
// included) and closes the block when the line meets its end condition. A
// blank line that ends kind 6 or 7 is not part of the block.
func (sc *scanner) htmlLine(line string) class {
	if !htmlEnded(sc.html, line) {
		return classHTML
	}
	k := sc.html
	sc.html = 0
	if k >= htmlBlockTag {
		return classText
	}
	return classHTML
}

// blank reports whether line is blank as CommonMark defines it: nothing
// but spaces and tabs.
func blank(line string) bool {
	return spacesEnd(line, 0) == len(line)
}

// mayCloseParagraph reports whether s (unindented, not blank) may be a line
// after which no paragraph is open: an ATX heading, a setext underline, a
// thematic break, or a line goldmark reads as blank (vertical tab, form
// feed). When in doubt it says yes, so that kind 7 may start after it.
func mayCloseParagraph(s string) bool {
	switch s[0] {
	case '#', '=', '-', '*', '_':
		return true
	}
	return strings.Trim(s, " \t\v\f") == ""
}

// unindent drops leading indentation of at most three columns; shallow is
// false when the line is indented four columns or more (tabs stop at
// multiples of four), which CommonMark reads as indented code or as the
// continuation of a paragraph, never as the start of a line. A blank line
// is not shallow.
func unindent(line string) (rest string, shallow bool) {
	col := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return line[i:], col < 4
		}
		if col >= 4 {
			return "", false
		}
	}
	return "", false
}
