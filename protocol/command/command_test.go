package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// brief is a Command without its error text, for comparing.
type brief struct {
	Line                          int
	Raw, Verb, Reason, ID, Choice string
	Bad                           bool
}

func briefs(cs []Command) []brief {
	out := []brief{}
	for _, c := range cs {
		out = append(out, brief{c.Line, c.Raw, c.Verb, c.Reason, c.GateID, c.Choice, c.Err != nil})
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		prefix string
		want   []brief
	}{
		{"hold with reason", "/aep hold waiting for legal", "", []brief{{1, "/aep hold waiting for legal", "hold", "waiting for legal", "", "", false}}},
		{"several commands, one per line", "thanks!\n/aep resolve g1 approve\n\n/aep status\r\n/aep recheck", "", []brief{
			{2, "/aep resolve g1 approve", "resolve", "", "g1", "approve", false},
			{4, "/aep status", "status", "", "", "", false},
			{5, "/aep recheck", "recheck", "", "", "", false},
		}},
		{"indented is not at line start", "   /aep resume", "", []brief{}},
		{"tab after prefix", "/aep\tresume", "", []brief{{1, "/aep\tresume", "resume", "", "", "", false}}},
		{"lone CR ends a line", "x\r/aep resume", "", []brief{{2, "/aep resume", "resume", "", "", "", false}}},
		{"custom prefix", "/gate resume\n/aep resume", "/gate", []brief{{1, "/gate resume", "resume", "", "", "", false}}},
		{"hold without reason", "/aep hold", "", []brief{{1, "/aep hold", "hold", "", "", "", true}}},
		{"close with reason", "/aep close shipped in #9", "", []brief{{1, "/aep close shipped in #9", "close", "shipped in #9", "", "", false}}},
		{"close without reason", "/aep close", "", []brief{{1, "/aep close", "close", "", "", "", true}}},
		{"resolve missing choice", "/aep resolve g1", "", []brief{{1, "/aep resolve g1", "resolve", "", "g1", "", true}}},
		{"resolve extra words", "/aep resolve g1 approve as owner", "", []brief{{1, "/aep resolve g1 approve as owner", "resolve", "", "g1", "approve", true}}},
		{"resume with words", "/aep resume after CI", "", []brief{{1, "/aep resume after CI", "resume", "", "", "", true}}},
		{"unknown verb", "/aep approve", "", []brief{{1, "/aep approve", "", "", "", "", true}}},
		{"verbs are case-sensitive", "/aep RESUME", "", []brief{{1, "/aep RESUME", "", "", "", "", true}}},
		{"prefix alone", "/aep", "", []brief{{1, "/aep", "", "", "", "", true}}},
		// Text a person does not read as a command.
		{"prefix glued to verb", "/aephold x", "", []brief{}},
		{"prefix case differs", "/AEP hold x", "", []brief{}},
		{"not at line start", "please /aep resume", "", []brief{}},
		{"list item", "- /aep resume", "", []brief{}},
		{"list item's lazy continuation", "1. first\n/aep resume", "", []brief{}},
		{"list item continued after a blank line", "- a\n\n  b\n/aep resume", "", []brief{}},
		{"list item after a quote, continued after a blank line", ">\n* 0\n\n  0\n/aep resume", "", []brief{}},
		{"after a list and a blank line", "- a\n\n/aep status", "", []brief{{3, "/aep status", "status", "", "", "", false}}},
		{"table header", "/aep resume | x\n--- | ---", "", []brief{}},
		{"table body row", "| a |\n| :- |\n/aep resume", "", []brief{}},
		{"paragraph continuation counts", "I agree.\n/aep resume", "", []brief{{2, "/aep resume", "resume", "", "", "", false}}},
		{"four spaces is code", "\n    /aep resume", "", []brief{}},
		{"tab is code", "\t/aep resume", "", []brief{}},
		{"inside backtick fence", "```\n/aep resume\n```", "", []brief{}},
		{"inside tilde fence", "~~~md\n/aep resume\n~~~", "", []brief{}},
		{"indented fence", "  ```\n/aep resume\n  ```\n/aep status", "", []brief{{4, "/aep status", "status", "", "", "", false}}},
		{"short closing fence does not close", "````\n```\n/aep resume\n````", "", []brief{}},
		{"unclosed fence runs to the end", "```\n/aep resume", "", []brief{}},
		{"quote", "> /aep resume", "", []brief{}},
		{"quote's lazy continuation", "> the owner said\n/aep resume", "", []brief{}},
		{"html comment ends a lazy quote", "> a\n<!--\n\n/aep resume\n-->", "", []brief{}},
		{"non-breaking space is not a blank line", "> a\n\u00a0\n/aep resume", "", []brief{}},
		{"after a quote and a blank line", "> the owner said\n\n/aep status", "", []brief{{3, "/aep status", "status", "", "", "", false}}},
		{"fence ends a lazy quote", "> a\n```\nx\n```\n/aep status", "", []brief{{5, "/aep status", "status", "", "", "", false}}},
		{"html comment", "<!--\n/aep resume\n-->\n/aep status", "", []brief{{4, "/aep status", "status", "", "", "", false}}},
		{"html block to blank line", "<details>\n/aep resume\n\n/aep status", "", []brief{{4, "/aep status", "status", "", "", "", false}}},
		{"raw html block over blank lines", "<pre>\n\n/aep resume\n</pre>\n/aep status", "", []brief{{5, "/aep status", "status", "", "", "", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := briefs(Parse(tt.body, tt.prefix))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

func TestParseErrNamesValidForms(t *testing.T) {
	for _, body := range []string{"/aep approve", "/aep hold", "/aep resolve x", "/aep status now", "/aep"} {
		cs := Parse(body, "")
		if len(cs) != 1 || cs[0].Err == nil {
			t.Fatalf("Parse(%q) = %+v; want one malformed command", body, cs)
		}
		for _, f := range Forms("") {
			if !strings.Contains(cs[0].Err.Error(), f) {
				t.Errorf("Parse(%q).Err = %q; want it to name %q", body, cs[0].Err, f)
			}
		}
	}
}

func TestUsageHoldsNoCommand(t *testing.T) {
	for _, prefix := range []string{"", "/gate"} {
		u := Usage(prefix)
		if cs := Parse(u, prefix); len(cs) != 0 {
			t.Errorf("Usage(%q) parses as commands: %+v", prefix, cs)
		}
		want := "- `" + prefix + " resolve <gate-id> <choice>`"
		if prefix == "" {
			want = "- `/aep resolve <gate-id> <choice>`"
		}
		if !strings.Contains(u, want) {
			t.Errorf("Usage(%q) = %q; want it to list %q", prefix, u, want)
		}
	}
}

// TestParseNegativeControl shows that the exclusions are what stop a
// command hidden in a quote, code, a list, a table or HTML: with every line
// counted, each of these bodies yields a command.
func TestParseNegativeControl(t *testing.T) {
	everyLine := func(class) bool { return true }
	for _, body := range []string{
		"> the owner said\n/aep resolve g1 approve",
		"```\n/aep resolve g1 approve\n```",
		"- ok\n/aep resolve g1 approve",
		"/aep resolve g1 approve | x\n--- | ---",
		"<!--\n/aep resolve g1 approve\n-->",
	} {
		if got := Parse(body, ""); len(got) != 0 {
			t.Errorf("Parse(%q) = %+v; want no command", body, got)
		}
		if got := parse(body, "", everyLine); len(got) != 1 || got[0].GateID != "g1" {
			t.Errorf("without the exclusions, parse(%q) = %+v; want the hidden command", body, got)
		}
	}
}
