package checks

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escaping for the board issue. Titles, questions and reasons come from
// issue and pull-request text anyone who may open one can write, so none
// may become Markdown, HTML or Mermaid: an HTML comment such as a fake
// board marker, a link, or a Mermaid directive.

// maxBoardText bounds a title or question on the board, in runes.
const maxBoardText = 200

// inline escapes s as one line of Markdown text: HTML's <, > and & become
// entities and Markdown's punctuation is backslash-escaped, so the text
// shows as written and can start nothing (no comment, tag, link, emphasis,
// mention or table cell boundary); GFM's autolinks are defused
// (defuseAutolinks). Line breaks become spaces.
func inline(s string) string { return escapeInline(defuseAutolinks(oneLine(s, maxBoardText))) }

// zwj, the zero-width joiner, is what defuseAutolinks inserts: it shows as
// nothing and is neither a domain nor a login character.
const zwj = "\u200d"

// defuseAutolinks inserts zwj where GitHub would otherwise make a link of
// plain text (GFM 0.29 §6.9, extended autolinks, and GitHub's references):
// after "@" (an email address, a mention), after ":" before "//" (http://,
// https:// and any other scheme), between "www" and "." (a www autolink,
// any case, anywhere). Issue references (#N) stay: the board's own text
// names work units by them.
func defuseAutolinks(s string) string {
	var b strings.Builder
	last := 0 // s[:last] is written
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteString(s[last:i] + zwj)
			last = i
		case s[i] == '@' || (s[i] == ':' && strings.HasPrefix(s[i+1:], "//")):
			b.WriteString(s[last:i+1] + zwj)
			last = i + 1
		}
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// escapeInline is inline's escaping of one line.
func escapeInline(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '|', '~', '@':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			if unicode.IsControl(r) || r == utf8.RuneError {
				b.WriteRune('�')
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// boardLink writes a Markdown link to url with the already escaped text; a
// url that is not http(s) or holds a character that could end the link
// shows the text alone.
func boardLink(text, url string) string {
	if !safeURL(url) {
		return text
	}
	return "[" + text + "](" + url + ")"
}

// safeURL reports whether url is an http(s) address without spaces,
// parentheses, angle brackets or quotes.
func safeURL(url string) bool {
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return false
	}
	return !strings.ContainsAny(url, " \t\r\n()<>\"'`\\|")
}

// boardNodeLabel escapes s for a quoted Mermaid node label: letters,
// digits, spaces and plain punctuation pass; everything else (quotes,
// brackets, #, %, backticks, semicolons, ...) becomes a Mermaid entity
// code "#NNN;", so a title can neither end the label or the statement nor
// start a directive, a click handler or the end of the code block.
func boardNodeLabel(s string) string {
	s = oneLine(s, 60)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .,:?!-_/'", r)):
			b.WriteRune(r)
		case r >= 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "#%d;", r)
		}
	}
	return b.String()
}
