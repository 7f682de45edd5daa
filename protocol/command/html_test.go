package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// htmlCases are bodies whose HTML block hides a command (hidden) or ends in
// time for a later line to count (lines), one or more per kind of
// CommonMark's seven (spec 0.31.2 §4.6).
var htmlCases = []struct {
	name   string
	body   string
	hidden bool  // a command hides inside HTML
	lines  []int // the command lines Parse returns
}{
	// Kind 1: <pre, <script, <style, <textarea, over blank lines, to any of their closing tags.
	{"1 pre over a blank line", "<pre>\n\n/aep resume\n</pre>\n/aep status", true, []int{5}},
	{"1 script with attributes", "<script type=\"x\">\n\n/aep resume\n</script>", true, nil},
	{"1 style ends at another raw tag's close", "<style\n/aep resume\n</textarea>\n/aep status", true, []int{4}},
	{"1 textarea, case ignored", "<TextArea>\n\n/aep resume\n</TEXTAREA>\n/aep status", true, []int{5}},
	{"1 ends on its start line", "<pre>x</pre>\n/aep status", false, []int{2}},
	{"1 interrupts a paragraph", "text\n<pre>\n\n/aep resume\n</pre>", true, nil},
	{"1 pre/> as goldmark reads it", "<pre/>\n\n/aep resume", true, nil},
	{"1 not a raw tag name", "<prex>\n\n/aep status", false, []int{3}},
	// Kind 2: <!-- to -->.
	{"2 comment", "<!--\n/aep resume\n-->\n/aep status", true, []int{4}},
	{"2 comment over a blank line", "<!--\n\n/aep resume\n-->", true, nil},
	{"2 ends on its start line", "<!-- x -->\n/aep status", false, []int{2}},
	{"2 <!--> ends at once", "<!-->\n/aep status", false, []int{2}},
	{"2 interrupts a paragraph", "text\n<!--\n/aep resume\n-->", true, nil},
	// Kind 3: <? to ?>.
	{"3 instruction", "<?php\n\n/aep resume\n?>\n/aep status", true, []int{5}},
	{"3 ends on its start line", "<?x?>\n/aep status", false, []int{2}},
	{"3 interrupts a paragraph", "text\n<?\n/aep resume", true, nil},
	// Kind 4: <! and a letter, to >.
	{"4 declaration (the fuzz crasher)", "<!A0\n/aep 000000", true, nil},
	{"4 lower-case letter", "<!doctype\n\n/aep resume\n>\n/aep status", true, []int{5}},
	{"4 ends on its start line", "<!DOCTYPE html>\n/aep status", false, []int{2}},
	{"4 interrupts a paragraph", "text\n<!X\n/aep resume", true, nil},
	{"4 needs a letter", "<!0\n/aep status", false, []int{2}},
	// Kind 5: <![CDATA[ to ]]>.
	{"5 CDATA", "<![CDATA[\n\n/aep resume\n]]>\n/aep status", true, []int{5}},
	{"5 a lone > does not end it", "<![CDATA[ >\n/aep resume", true, nil},
	{"5 interrupts a paragraph", "text\n<![CDATA[\n/aep resume", true, nil},
	// Kind 6: a block tag name, to a blank line.
	{"6 div", "<div>\n/aep resume\n\n/aep status", true, []int{4}},
	{"6 closing tag, open end", "</table\n/aep resume\n\n/aep status", true, []int{4}},
	{"6 interrupts a paragraph", "text\n<details>\n/aep resume", true, nil},
	{"6 interrupts a lazy quote", "> a\n<p>\n\n/aep status", false, []int{4}},
	{"6 a non-breaking space is not blank", "<div>\n\u00a0\n/aep resume", true, nil},
	{"6 a longer name is not a block tag", "<divx\n/aep status", false, []int{2}},
	// Kind 7: a complete tag alone on its line, to a blank line; never
	// interrupts a paragraph.
	{"7 open tag", "<span>\n/aep resume\n\n/aep status", true, []int{4}},
	{"7 attributes", "<a href=\"x\" id=y data-z='1' hidden/>\n/aep resume", true, nil},
	{"7 closing tag", "</span>\n/aep resume", true, nil},
	{"7 after a heading", "# title\n<span>\n/aep resume", true, nil},
	{"7 after a setext underline", "title\n===\n<span>\n/aep resume", true, nil},
	{"7 does not interrupt a paragraph", "text\n<span>\n/aep status", false, []int{3}},
	{"7 tag with text after it", "<span> x\n/aep status", false, []int{2}},
	{"7 malformed attribute", "<a b=>\n/aep status", false, []int{2}},
	{"7 raw tag names are not kind 7", "</pre>\n/aep status", false, []int{2}},
}

func TestParseHTMLBlocks(t *testing.T) {
	for _, tt := range htmlCases {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, c := range Parse(tt.body, "") {
				got = append(got, c.Line)
			}
			if diff := cmp.Diff(tt.lines, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) lines (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// TestParseHTMLBlocksNegativeControl shows that the HTML block rules are
// what hide each command: with HTML lines counted as prose, every hidden
// command comes back.
func TestParseHTMLBlocksNegativeControl(t *testing.T) {
	withHTML := func(c class) bool { return c == classText || c == classHTML }
	for _, tt := range htmlCases {
		if !tt.hidden {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			if got, want := len(parse(tt.body, "", withHTML)), len(tt.lines)+1; got < want {
				t.Errorf("with HTML counted, parse(%q) gave %d commands; want at least %d", tt.body, got, want)
			}
		})
	}
}
