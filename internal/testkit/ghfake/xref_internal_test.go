package ghfake

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestReferences(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []issueRef
	}{
		{"work-unit line", "Work-unit: #1", []issueRef{{"", 1}}},
		{"closing keyword", "Fixes #12.", []issueRef{{"", 12}}},
		{"in parentheses and lists", "- (#3)\n- #4, #5", []issueRef{{"", 3}, {"", 4}, {"", 5}}},
		{"GH- form", "see gh-7 and GH-8", []issueRef{{"", 7}, {"", 8}}},
		{"other repository", "acme/gadgets#2", []issueRef{{"acme/gadgets", 2}}},
		{"issue URL", "https://github.com/acme/widgets/issues/9", []issueRef{{"acme/widgets", 9}}},
		{"pull URL as a link", "[the PR](https://github.com/acme/widgets/pull/10#issuecomment-1)", []issueRef{{"acme/widgets", 10}}},
		{"autolink", "<https://github.com/acme/widgets/issues/11>", []issueRef{{"acme/widgets", 11}}},
		{"glued to a word", "abc#1 x/#2 a#b", nil},
		{"HTML entity", "&#35;", nil},
		{"code span", "`#1`", nil},
		{"fenced code", "```\nWork-unit: #1\n```", nil},
		{"indented code", "    #1", nil},
		{"link text", "[#1](https://example.com)", nil},
		{"quoted", "> Work-unit: #2", []issueRef{{"", 2}}},
		{"emphasis", "**#6**", []issueRef{{"", 6}}},
		{"heading is not a reference", "# 1", nil},
		{"other host", "https://example.com/acme/widgets/issues/9", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := references(tt.body)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(issueRef{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("references(%q) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// FuzzReferences: any body parses, and every reference names a positive
// number.
func FuzzReferences(f *testing.F) {
	for _, s := range []string{"Work-unit: #1", "acme/w#2 GH-3", "```\n#1\n```", "[x](https://github.com/a/b/pull/4)", "<a>#5</a>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, r := range references(body) {
			if r.number < 0 {
				t.Errorf("references(%q) gave %+v", body, r)
			}
		}
	})
}
