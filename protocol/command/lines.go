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

	open    int    // index+1 in fences of the open fenced block, 0 when none
	ch      byte   // the open fence's character
	n       int    // the open fence's length
	endHTML string // what ends the open HTML block: "-->", "</pre>"…, or "" for a blank line
	inHTML  bool   // inside an HTML block
	// cont is the class of the container the next non-blank line continues
	// lazily (a quote, a list item or a table); classText when none.
	cont class
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
	s, shallow := unindent(line)
	switch {
	case sc.open > 0:
		return sc.inFence(line, s, shallow)
	case sc.inHTML:
		return sc.htmlLine(line)
	case strings.TrimSpace(line) == "":
		sc.cont = classText
		return classText
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
	case sc.cont != classText:
		return sc.cont
	case !shallow:
		return classIndent
	case s[0] == '>':
		sc.cont = classQuote
		return classQuote
	case isListItem(s):
		sc.cont = classList
		return classList
	}
	if end, ok := htmlStart(s); ok {
		sc.inHTML, sc.endHTML = true, end
		return sc.htmlLine(s[1:])
	}
	return classText
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

// htmlLine classifies a line of an open HTML block and closes the block
// when the line ends it.
func (sc *scanner) htmlLine(line string) class {
	if sc.endHTML == "" {
		if strings.TrimSpace(line) == "" {
			sc.inHTML = false
			return classText
		}
	} else if strings.Contains(strings.ToLower(line), sc.endHTML) {
		sc.inHTML = false
	}
	return classHTML
}

// rawTags are CommonMark's HTML block type 1: it runs to its closing tag,
// blank lines included.
var rawTags = []string{"pre", "script", "style", "textarea"}

// htmlStart reports whether s (unindented) starts an HTML block and what
// ends it: "-->" for a comment, the closing tag for type 1, "" (a blank
// line) for any other tag-like start "<x" or "</x" with x a letter (types 6
// and 7, merged towards excluding).
func htmlStart(s string) (end string, ok bool) {
	if len(s) < 2 || s[0] != '<' {
		return "", false
	}
	if strings.HasPrefix(s, "<!--") {
		return "-->", true
	}
	lower := strings.ToLower(s[:min(len(s), 12)])
	for _, t := range rawTags {
		if strings.HasPrefix(lower, "<"+t) && (len(s) == len(t)+1 || strings.ContainsRune(" \t>", rune(s[len(t)+1]))) {
			return "</" + t + ">", true
		}
	}
	c := s[1]
	if c == '/' && len(s) > 2 {
		c = s[2]
	}
	return "", ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
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
