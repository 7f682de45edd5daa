package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/codeowners"
)

// TestMoreSpecific pins the order OwnersOf resolves owners by.
func TestMoreSpecific(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"docs/api/**", "docs/**", true},     // rule 1: literal beats **
		{"docs/*.md", "docs/**", true},       // rule 1: wildcard beats **
		{"docs/api.md", "docs/*.md", true},   // rule 1: literal beats wildcard
		{"api/**", "**/*.proto", true},       // rule 1, first segment
		{"docs/**/x.md", "docs/**", true},    // rule 2: more segments
		{"docs/a*.md", "docs/*.md", true},    // rule 3: more literal characters
		{"docs/[ab].md", "docs/?.md", false}, // a class is no literal: a tie
		{"docs/*.md", "docs/a*", true},       // rule 3
		{"docs/**", "docs/api/**", false},    // the converse of rule 1
		{"docs/*.md", "docs/*.md", false},    // a tie
		{"./docs/api/**", "docs/**", true},   // "./" is ignored
		{"docs/x/**", "docs/*/y/**", true},   // rule 1 before rule 2
		{"**", "docs/**", false},             // "**" loses to any literal
		// Patterns compare as they match (glob.Canonical).
		{"api/**", "*.proto", true},        // "*.proto" is "**/*.proto"
		{"*.proto", "**/*.proto", false},   // the same pattern: a tie
		{"/docs/api/", "docs/**", true},    // "/" and a trailing "/" left out
		{"docs/contract", "docs/**", true}, // a folder's pattern, literal
		{"docs/**", "docs", true},          // "docs" is "**/docs"
	}
	for _, tt := range tests {
		if got := MoreSpecific(tt.a, tt.b); got != tt.want {
			t.Errorf("MoreSpecific(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestOwnersOf: the most specific matching pattern's owners, a tie to the
// later entry, "*" for everything else; the flat list owns every path.
func TestOwnersOf(t *testing.T) {
	c, err := Parse(DefaultPath, []byte(`version: 1
owners:
  "*": [olivia]
  docs/**: [dana]
  docs/contract/**: [carol]
  "**/*.proto": [erin]
  api/**: [bob]
  docs/*.md: [frank]
  docs/?.md: [gina]
  "*.sql": [hal]
  db/: [ivy]
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want []string
	}{
		{"main.go", []string{"olivia"}},
		{"docs/guide/x.txt", []string{"dana"}},
		{"docs/contract/api.md", []string{"carol"}},
		{"docs/readme.md", []string{"frank"}},
		{"docs/a.md", []string{"gina"}}, // docs/*.md and docs/?.md tie: the later entry
		{"api/v1/a.proto", []string{"bob"}},
		{"lib/a.proto", []string{"erin"}},
		// A pattern without a slash at any depth, a folder's files.
		{"lib/x/q.sql", []string{"hal"}},
		{"lib/db/x.go", []string{"ivy"}},
		{"db/q.sql", []string{"ivy"}}, // "**/db" beats "**/*.sql": a literal second segment
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, c.OwnersOf(tt.path)); diff != "" {
			t.Errorf("OwnersOf(%q) (-want +got):\n%s", tt.path, diff)
		}
	}
	flat := &Config{Owners: []string{"olivia", "bob"}}
	if diff := cmp.Diff([]string{"olivia", "bob"}, flat.OwnersOf("docs/contract/x.md")); diff != "" {
		t.Errorf("flat OwnersOf (-want +got):\n%s", diff)
	}
}

// TestOwnersOfTie: patterns no rule tells apart go to the one written
// later.
func TestOwnersOfTie(t *testing.T) {
	c := &Config{Owners: []string{"olivia"}, PathOwners: []PathOwner{{Pattern: "docs/a*", Owners: []string{"x"}}, {Pattern: "docs/*a", Owners: []string{"y"}}}}
	if diff := cmp.Diff([]string{"y"}, c.OwnersOf("docs/aa")); diff != "" {
		t.Errorf("tie (-want +got):\n%s", diff)
	}
}

// TestWithCodeOwners: CODEOWNERS' last "*" line gives the repository's
// owners; its lines give path owners, an unowned line falls back to the
// repository's; teams in it are expanded like any owner.
func TestWithCodeOwners(t *testing.T) {
	f, probs := codeowners.Parse("CODEOWNERS", []byte("* @nobody\n* @olivia\n/api/ @bob @acme/api\n/api/gen/\n"))
	if probs != nil {
		t.Fatal(probs)
	}
	c := (&Config{OwnersFrom: OwnersFromCodeOwners}).WithCodeOwners(f)
	if diff := cmp.Diff([]string{"olivia"}, c.Owners); diff != "" {
		t.Errorf("Owners (-want +got):\n%s", diff)
	}
	for path, want := range map[string][]string{"main.go": {"olivia"}, "api/x.go": {"bob", "@acme/api"}, "api/gen/x.go": {"olivia"}} {
		if diff := cmp.Diff(want, c.OwnersOf(path)); diff != "" {
			t.Errorf("OwnersOf(%q) (-want +got):\n%s", path, diff)
		}
	}
	if diff := cmp.Diff([]Team{{"acme", "api"}}, c.Teams()); diff != "" {
		t.Errorf("Teams (-want +got):\n%s", diff)
	}
	m := c.WithMembers(map[string][]string{"@acme/api": {"erin"}})
	if diff := cmp.Diff([]string{"bob", "erin"}, m.OwnersOf("api/x.go")); diff != "" {
		t.Errorf("expanded OwnersOf (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"olivia", "nobody", "bob", "erin"}, m.AllOwners()); diff != "" {
		t.Errorf("AllOwners (-want +got):\n%s", diff)
	}
	if c.CodeOwners.Rules[2].Owners[1] != "@acme/api" {
		t.Error("WithMembers changed the file it was called on")
	}
}

// TestPathOwnerTeams: teams in an owners map are read and expanded.
func TestPathOwnerTeams(t *testing.T) {
	c := &Config{Owners: []string{"olivia"}, PathOwners: []PathOwner{{Pattern: "api/**", Owners: []string{"@acme/api", "bob"}}}}
	if diff := cmp.Diff([]Team{{"acme", "api"}}, c.Teams()); diff != "" {
		t.Errorf("Teams (-want +got):\n%s", diff)
	}
	got := c.WithMembers(map[string][]string{"@acme/api": {"erin"}}).OwnersOf("api/a.go")
	if diff := cmp.Diff([]string{"erin", "bob"}, got); diff != "" {
		t.Errorf("OwnersOf (-want +got):\n%s", diff)
	}
}
