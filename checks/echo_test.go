package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/aepgate/aepgate/protocol/gatelog"
)

// inlines reads md as GitHub does (CommonMark with GitHub's extensions)
// and returns the text of its code spans, and the text outside them along
// with the live nodes there (links and autolinks with their targets, raw
// HTML).
func inlines(md string) (spans []string, live string, kinds []string) {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var out strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			var b strings.Builder
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			spans = append(spans, b.String())
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			out.Write(n.Segment.Value(src))
		case *ast.Link:
			kinds = append(kinds, "Link "+string(n.Destination))
		case *ast.AutoLink:
			kinds = append(kinds, "AutoLink "+string(n.URL(src)))
		case *ast.RawHTML, *ast.HTMLBlock:
			kinds = append(kinds, n.Kind().String())
		}
		return ast.WalkContinue, nil
	})
	return spans, out.String(), kinds
}

func TestCode(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "@victim", "`@victim`"},
		{"backtick inside", "a`b", "``a`b``"},
		{"runs of backticks", "a``b`c", "```a``b`c```"},
		{"starts with a backtick", "`x", "`` `x ``"},
		{"ends with a backtick", "x`", "`` x` ``"},
		{"starts and ends with spaces", " x ", "`  x  `"},
		{"one side space", " x", "`  x `"},
		{"only spaces", "  ", "`  `"},
		{"line breaks", "a\n\n> @b\r\nc\rd", "`a  > @b c d`"},
		{"markdown and html", "**x** <b>[y](z)</b>", "`**x** <b>[y](z)</b>`"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := code(tt.in); got != tt.want {
				t.Errorf("code(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzCode checks that code(s) reads, as GitHub's Markdown reads it, as one
// code span holding exactly s (line breaks as spaces) and nothing else.
func FuzzCode(f *testing.F) {
	for _, s := range []string{"@victim", "a`b", "`x", " x ", "  ", "a\n\nb", "``", "<!--", "x\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || strings.ContainsAny(s, "\x00") {
			return
		}
		want := strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
		if strings.TrimSpace(want) == "" {
			return // blank: no paragraph, and how a span of blanks is trimmed shows nothing
		}
		spans, live, kinds := inlines("x " + code(s))
		if len(spans) != 1 || spans[0] != want || strings.TrimSpace(live) != "x" || len(kinds) != 0 {
			t.Fatalf("code(%q) = %q reads as spans %q, text %q, nodes %v", s, code(s), spans, live, kinds)
		}
	})
}

// hostileReply is the reply to mallory's and alice's comments whose
// commands echo a mention, Markdown and HTML, replayed by the gate log.
func hostileReply(span func(string) string) string {
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	c := func(id int64, who, body string) gatelog.Item {
		return gatelog.Item{ID: id, URL: "https://github.com/acme/w/pull/21#issuecomment-1", Source: gatelog.Source{Kind: gatelog.PullRequest, Number: 21},
			Author: who, AuthorType: "User", Created: t0, Updated: t0, Body: body, Event: gatelog.EventCommentCreated}
	}
	body := "/aep @victim\n\n/aep resolve x-@victim approve\n\n/aep resolve g1 @victim\n\n/aep resume <b>@victim</b>\n\n" +
		"```aep-gate\nquestion: Q?\nchoices: [\"@victim\", \"@victim\"]\ncategory: explicit-hold\neffect: deploy\n\"@victim\": 1\n```"
	in := gatelog.Input{Project: "demo", Unit: 13, PR: 21, ControlIssue: 1, Items: []gatelog.Item{c(9, "alice", body)},
		Policy: gatelog.Policy{Owners: []string{"alice"}}, Permissions: gatelog.Permissions{"alice": "admin"}}
	var refused []gatelog.Outcome
	for _, o := range gatelog.Build(in).Outcomes {
		if !o.Accepted {
			refused = append(refused, o)
		}
	}
	return refusalReply(9, "alice", "", refused, span)
}

// TestRefusalReplyEchoesInert: everything the reply echoes of the comment
// is a code span, so "@victim" mentions nobody and the HTML stays text.
func TestRefusalReplyEchoesInert(t *testing.T) {
	reply := hostileReply(code)
	spans, live, kinds := inlines(strings.TrimPrefix(reply, ReplyMarker(9)))
	if strings.Contains(live, "@victim") || strings.Contains(live, "@alice") || len(kinds) != 0 {
		t.Errorf("the reply has live text %q and nodes %v:\n%s", live, kinds, reply)
	}
	victims := 0
	for _, s := range spans {
		victims += strings.Count(s, "@victim")
	}
	if got, want := victims, 4+1+1+2; got != want { // each command as written, the verb, the gate id as written and the block's key and choice the reasons quote
		t.Errorf("the reply's code spans echo @victim %d times, want %d:\n%s", got, want, reply)
	}
}

// TestRefusalReplyEchoesInertNegativeControl: with the text echoed as it
// is, the same reply mentions @victim and holds live HTML.
func TestRefusalReplyEchoesInertNegativeControl(t *testing.T) {
	reply := hostileReply(plain)
	_, live, kinds := inlines(strings.TrimPrefix(reply, ReplyMarker(9)))
	if !strings.Contains(live, "@victim") || !strings.Contains(live, "@alice") {
		t.Errorf("without code spans the reply still hides the mentions:\n%s", reply)
	}
	if diff := cmp.Diff([]string{"RawHTML", "RawHTML"}, kinds); diff != "" {
		t.Errorf("without code spans, live nodes (-want +got):\n%s", diff)
	}
}

func TestEchoReason(t *testing.T) {
	tests := []struct{ in, want string }{
		{`no gate "@victim" exists`, "no gate `@victim` exists"},
		{`choice "a\"b" is not one of "x", "y"`, "choice `a\"b` is not one of `x`, `y`"},
		{`saw "<b>" & more`, "saw `<b>` &amp; more"},
		{`an odd " quote <i>`, `an odd " quote &lt;i&gt;`},
		{"the forms are `/aep hold <reason>`", "the forms are `/aep hold <reason>`"},
	}
	for _, tt := range tests {
		if got := echoReason(tt.in, code); got != tt.want {
			t.Errorf("echoReason(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hostileStatus is the status comment of a unit an owner put on HOLD with
// a reason that mentions, links and holds HTML.
func hostileStatus(span func(string) string) string {
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	it := gatelog.Item{ID: 5, URL: "https://github.com/acme/w/pull/21#issuecomment-5", Source: gatelog.Source{Kind: gatelog.PullRequest, Number: 21},
		Author: "alice", AuthorType: "User", Created: t0, Updated: t0, Event: gatelog.EventCommentCreated,
		Body: "/aep hold ask @victim, see <img src=x> and [this](https://evil.example)"}
	res := gatelog.Build(gatelog.Input{Project: "demo", Unit: 13, PR: 21, ControlIssue: 1, Items: []gatelog.Item{it},
		Policy: gatelog.Policy{Owners: []string{"alice"}}, Permissions: gatelog.Permissions{"alice": "admin"}})
	return statusComment(GatesContext{Unit: 13, PR: 21, Owners: []string{"alice"}}, res.State, res.Blockers, span)
}

// TestStatusCommentEchoesInert: the HOLD's reason, shown in the blocker's
// heading, is a code span; so are the logins.
func TestStatusCommentEchoesInert(t *testing.T) {
	status := hostileStatus(code)
	spans, live, kinds := inlines(strings.TrimPrefix(status, StatusMarker))
	ours := []string{"Link https://github.com/acme/w/pull/21#issuecomment-5"}
	if strings.Contains(live, "@victim") || strings.Contains(live, "alice") || !cmp.Equal(kinds, ours) {
		t.Errorf("the status comment has live text %q and nodes %v (want only %v):\n%s", live, kinds, ours, status)
	}
	if !strings.Contains(strings.Join(spans, "\n"), "ask @victim, see <img src=x>") {
		t.Errorf("the HOLD's reason is not in a code span:\n%s", status)
	}
}

// TestStatusCommentEchoesInertNegativeControl: with the text shown as it
// is, the HOLD's reason mentions @victim and links.
func TestStatusCommentEchoesInertNegativeControl(t *testing.T) {
	status := hostileStatus(plain)
	_, live, kinds := inlines(strings.TrimPrefix(status, StatusMarker))
	if !strings.Contains(live, "@victim") || !strings.Contains(strings.Join(kinds, " "), "Link https://evil.example") {
		t.Errorf("without code spans the status comment still hides the reason's mention and link (%v):\n%s", kinds, status)
	}
}
