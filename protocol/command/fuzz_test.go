package command

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

var seeds = []string{
	"/aep hold waiting\n/aep resolve g1 approve\n/aep status",
	"> /aep resume\n```\n/aep resume\n```\n~~~\n/aep resume\n~~~",
	"- a\n/aep resume\n\n<!--\n/aep resume\n-->",
	"x | y\n--|--\n/aep resume",
	"    /aep resume\n\t/aep resume\n/aephold\n/AEP resume",
	"```aep-gate\nquestion: Q?\nchoices: [a, b]\ncategory: explicit-hold\neffect: deploy\n```",
	"```aep-gate\nquestion: &a [x]\nchoices: *a\nunknown: 1\n```",
	"<pre>\n\n/aep resume\n</pre>\n/aep status\r\n/aep recheck\r/aep hold r",
	"<!A0\n/aep 000000", // kind 4 once went unseen (the first crasher)
	"<?x\n/aep resume\n?>\n<![CDATA[\n/aep resume\n]]>\n<span id=\"a\">\n/aep resume",
	"> q\n<!--\n\n/aep resume\n-->\n- a\n\n  b\n/aep resume\n<div>\n\u00a0\n/aep resume",
}

// commonMarkProse returns the byte offsets at which a top-level paragraph or
// heading line starts, as goldmark (CommonMark with GitHub's extensions)
// reads src: the only places a person reads a line as written by itself.
func commonMarkProse(src []byte) map[int]bool {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	starts := map[int]bool{}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() != ast.KindParagraph && n.Kind() != ast.KindHeading {
			continue
		}
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			starts[lines.At(i).Start] = true
		}
	}
	return starts
}

// lineOffsets returns the byte offset of each line of s (split on \n).
func lineOffsets(s string) []int {
	offs := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			offs = append(offs, i+1)
		}
	}
	return offs
}

// FuzzParse checks that Parse never panics, that every command is a line
// starting with the prefix, and that CommonMark (goldmark, GitHub's
// extensions) reads each such line as the start of a top-level paragraph or
// heading line: no command comes from code, quotes, lists, tables or HTML.
func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		cmds := Parse(body, "")
		lines := splitLines(body)
		for _, c := range cmds {
			if c.Line < 1 || c.Line > len(lines) || !strings.HasPrefix(lines[c.Line-1], DefaultPrefix) {
				t.Fatalf("command %+v is not a line starting with the prefix", c)
			}
			if (c.Verb == "") != (c.Err != nil) && c.Verb == "" {
				t.Fatalf("command %+v has no verb and no error", c)
			}
		}
		if strings.ContainsAny(body, "\r\x00") || len(cmds) == 0 {
			return // goldmark's line handling differs for these; the checks above still ran
		}
		prose, offs := commonMarkProse([]byte(body)), lineOffsets(body)
		for _, c := range cmds {
			if !prose[offs[c.Line-1]] {
				t.Fatalf("line %d %q is a command, but CommonMark does not read it as the start of a prose line in:\n%s", c.Line, c.Raw, body)
			}
		}
	})
}

// FuzzParseContained checks that nothing inside a fence, a quote or after
// other text on a line is ever a command, whatever the text.
func FuzzParseContained(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, inner string) {
		fence := "```"
		for strings.Contains(inner, fence) {
			fence += "`"
		}
		lines := splitLines(inner)
		wrap := func(pre string) string {
			out := make([]string, len(lines))
			for i, l := range lines {
				out[i] = pre + l
			}
			return strings.Join(out, "\n")
		}
		for name, body := range map[string]string{
			"fenced":    fence + "\n" + strings.Join(lines, "\n") + "\n" + fence,
			"quoted":    wrap("> "),
			"mid-line":  wrap("x "),
			"indented":  "\n" + wrap("    "),
			"list item": wrap("- "),
		} {
			if cmds := Parse(body, ""); len(cmds) != 0 {
				t.Fatalf("%s text gave commands %+v:\n%s", name, cmds, body)
			}
		}
	})
}

// FuzzParseGateBlocks checks that the block decoder never panics, that
// every spec it returns is valid, and that a refused block says where.
func FuzzParseGateBlocks(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		specs, errs := ParseGateBlocks(body)
		n := len(splitLines(body))
		for _, s := range specs {
			if s.Question == "" || len(s.Choices) < 2 || s.Category == "" || s.Effect == "" || s.Scope == "" {
				t.Fatalf("spec %+v misses a required field", s)
			}
			if s.SafeDefault != "" && !contains(s.Choices, s.SafeDefault) {
				t.Fatalf("spec %+v: safe default not a choice", s)
			}
		}
		for _, e := range errs {
			be, ok := e.(*BlockError)
			if !ok || be.Line < 1 || be.Line > n || be.Block < 1 || be.Block > n || be.Message == "" {
				t.Fatalf("error %#v is not positioned in the %d-line body", e, n)
			}
		}
	})
}
