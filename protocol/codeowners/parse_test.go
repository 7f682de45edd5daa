package codeowners

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParse: comments and blank lines are skipped, e-mails are left out,
// teams keep their organization and lower-case their slug, and every line
// GitHub refuses is a positioned problem.
func TestParse(t *testing.T) {
	tests := []struct {
		name, text string
		want       []Rule
		wantErr    []string
	}{
		{"rules", "# owners\n\n*       @olivia @acme/Core\r\n/api/   @bob bob@example.com\n/apps/github\n",
			[]Rule{{"*", []string{"olivia", "@acme/core"}, 3}, {"/api/", []string{"bob"}, 4}, {"/apps/github", []string{}, 5}}, nil},
		{"inline comment", "* @olivia # lead\n", nil, []string{`CODEOWNERS:1:1: owner "#" is not @login, @org/team or an e-mail address (a comment must be on a line of its own)`}},
		{"negation", "!docs/ @olivia\n", nil, []string{`CODEOWNERS:1:1: pattern "!docs/": negation with ! does not work in CODEOWNERS`}},
		{"range", "*.[ch] @olivia\n", nil, []string{`CODEOWNERS:1:1: pattern "*.[ch]": character ranges [ ] do not work in CODEOWNERS`}},
		{"escaped hash", `\#x @olivia` + "\n", nil, []string{`CODEOWNERS:1:1: pattern "\\#x": escaping a leading # does not work in CODEOWNERS`}},
		{"bad login", "* @ol_ivia\n* olivia\n", nil, []string{`CODEOWNERS:1:1: owner "@ol_ivia" is not a GitHub login`,
			`CODEOWNERS:2:1: owner "olivia" is not @login, @org/team or an e-mail address (a comment must be on a line of its own)`}},
		{"bad team", "* @acme/\n", nil, []string{`CODEOWNERS:1:1: owner "@acme/" is not a team (@org/team-slug)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, probs := Parse("CODEOWNERS", []byte(tt.text))
			var got []string
			for _, p := range probs {
				got = append(got, p.Error())
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
			if tt.wantErr != nil {
				return
			}
			if diff := cmp.Diff(tt.want, f.Rules); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOwners: the last matching line wins; a line without owners leaves
// its paths unowned (matched, no owners); no line matching says so.
func TestOwners(t *testing.T) {
	f, probs := Parse("CODEOWNERS", []byte("* @olivia\n/api/ @bob\n/api/v2/ @carol\n/api/v2/gen/\n*.md @dana\n"))
	if probs != nil {
		t.Fatal(probs)
	}
	tests := []struct {
		name        string
		want        []string
		wantMatched bool
	}{
		{"main.go", []string{"olivia"}, true},
		{"api/v1/a.go", []string{"bob"}, true},
		{"api/v2/a.go", []string{"carol"}, true},
		{"api/v2/gen/a.go", []string{}, true},
		{"api/v2/README.md", []string{"dana"}, true},
	}
	for _, tt := range tests {
		got, matched := f.Owners(tt.name)
		if diff := cmp.Diff(tt.want, got); diff != "" || matched != tt.wantMatched {
			t.Errorf("Owners(%q) = %v %v, want %v %v", tt.name, got, matched, tt.want, tt.wantMatched)
		}
	}
	empty, _ := Parse("CODEOWNERS", []byte("/api/ @bob\n"))
	if got, matched := empty.Owners("main.go"); got != nil || matched {
		t.Errorf("Owners(main.go) with no matching line = %v %v, want nil false", got, matched)
	}
}

// FuzzParse checks that Parse never panics, returns exactly one of a file
// or problems, and that every rule it keeps has a valid pattern and owners.
func FuzzParse(f *testing.F) {
	f.Add([]byte("* @olivia @acme/core\n/api/ bob@example.com\n# c\n"))
	f.Add([]byte("!x @a\n[ @b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, probs := Parse("CODEOWNERS", data)
		if (file == nil) == (probs == nil) {
			t.Fatalf("Parse returned %v and %v", file, probs)
		}
		for _, p := range probs {
			if p.Line < 1 || p.File != "CODEOWNERS" {
				t.Fatalf("problem not positioned: %+v", p)
			}
		}
		if file == nil {
			return
		}
		for _, r := range file.Rules {
			if checkPattern(r.Pattern) != "" || r.Line < 1 {
				t.Fatalf("kept rule %+v", r)
			}
			for _, o := range r.Owners {
				if o == "" || o[0] == '#' {
					t.Fatalf("kept owner %q", o)
				}
			}
			file.Owners(r.Pattern)
		}
	})
}
