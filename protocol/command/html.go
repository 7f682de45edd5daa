package command

import "strings"

// htmlKind is one of CommonMark's seven kinds of HTML block (spec 0.31.2
// §4.6), numbered as the spec numbers them; 0 is none.
type htmlKind uint8

// Kinds 1 to 5 end on the first line, their start line included, that
// contains one of htmlEnds[kind] (ASCII case ignored); kinds 6 and 7 end
// before a blank line. Every kind but 7 may interrupt a paragraph.
const (
	htmlRaw         htmlKind = 1 + iota // <pre, <script, <style, <textarea
	htmlComment                         // <!--
	htmlInstruction                     // <?
	htmlDeclaration                     // <! and an ASCII letter
	htmlCDATA                           // <![CDATA[
	htmlBlockTag                        // <div, </p … (blockTags)
	htmlCompleteTag                     // a complete open or closing tag alone on its line
)

// htmlEnds are the end conditions of kinds 1 to 5.
var htmlEnds = [...][]string{
	htmlRaw:         {"</pre>", "</script>", "</style>", "</textarea>"},
	htmlComment:     {"-->"},
	htmlInstruction: {"?>"},
	htmlDeclaration: {">"},
	htmlCDATA:       {"]]>"},
}

// rawTags are the tag names of kind 1.
var rawTags = []string{"pre", "script", "style", "textarea"}

// blockTags are the tag names of kind 6: the spec's list, with "meta"
// (goldmark) and "source" (cmark-gfm, GitHub's renderer) added, so that a
// tag any of them reads as interrupting a paragraph does so here too.
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "base": true, "basefont": true,
	"blockquote": true, "body": true, "caption": true, "center": true, "col": true, "colgroup": true,
	"dd": true, "details": true, "dialog": true, "dir": true, "div": true, "dl": true, "dt": true,
	"fieldset": true, "figcaption": true, "figure": true, "footer": true, "form": true, "frame": true,
	"frameset": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"head": true, "header": true, "hr": true, "html": true, "iframe": true, "legend": true,
	"li": true, "link": true, "main": true, "menu": true, "menuitem": true, "meta": true, "nav": true,
	"noframes": true, "ol": true, "optgroup": true, "option": true, "p": true, "param": true,
	"search": true, "section": true, "source": true, "summary": true, "table": true, "tbody": true,
	"td": true, "tfoot": true, "th": true, "thead": true, "title": true, "tr": true, "track": true,
	"ul": true,
}

// htmlStart returns the kind of HTML block s (a line without its
// indentation of at most three columns) starts; 0 when none. inPara says a
// paragraph is open, which kind 7 cannot interrupt. Where goldmark, the
// fuzz oracle, starts a block the spec does not, so does htmlStart: when in
// doubt a line is not prose.
func htmlStart(s string, inPara bool) htmlKind {
	if len(s) < 2 || s[0] != '<' {
		return 0
	}
	switch {
	case strings.HasPrefix(s, "<!--"):
		return htmlComment
	case s[1] == '?':
		return htmlInstruction
	case strings.HasPrefix(s, "<![CDATA["):
		return htmlCDATA
	case s[1] == '!':
		if len(s) > 2 && isLetter(s[2]) {
			return htmlDeclaration
		}
		return 0
	case isRawStart(s):
		return htmlRaw
	case isBlockTagStart(s):
		return htmlBlockTag
	case !inPara && isCompleteTag(s):
		return htmlCompleteTag
	}
	return 0
}

// isRawStart reports whether s starts kind 1: "<" and a raw tag name, then
// a space, a tab, ">" or the end of the line. The name is compared with
// Unicode case folding and may also end at a form feed or "/>", as
// goldmark's (?i) pattern reads it.
func isRawStart(s string) bool {
	end := 1
	for end < len(s) && end < 16 && !strings.ContainsRune(" \t\f>/", rune(s[end])) {
		end++
	}
	name, rest := s[1:end], s[end:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\f' && rest[0] != '>' && !strings.HasPrefix(rest, "/>") {
		return false
	}
	for _, t := range rawTags {
		if strings.EqualFold(name, t) {
			return true
		}
	}
	return false
}

// isBlockTagStart reports whether s starts kind 6: "<" or "</" (goldmark
// also allows spaces after the slash), a block tag name (ASCII case
// ignored), then a space, a tab, ">", "/>" or the end of the line.
func isBlockTagStart(s string) bool {
	i := 1
	if s[i] == '/' {
		for i++; i < len(s) && s[i] == ' '; i++ {
		}
	}
	j := tagNameEnd(s, i)
	if j == i || !isBlockTag(s[i:j]) {
		return false
	}
	rest := s[j:]
	return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '>' || strings.HasPrefix(rest, "/>")
}

// htmlEnded reports whether line meets the end condition of kind k.
func htmlEnded(k htmlKind, line string) bool {
	if k >= htmlBlockTag {
		return blank(line)
	}
	for _, end := range htmlEnds[k] {
		if containsFoldASCII(line, end) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether s contains sub (lower case, its first
// byte not a letter), ASCII case ignored.
func containsFoldASCII(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := strings.IndexByte(s[i:], sub[0])
		if j < 0 {
			return false
		}
		i += j
		if i+len(sub) <= len(s) && equalFoldASCII(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
