package app_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
)

// TestFeatureMapIsTrue: docs/features.md lists exactly the App's features
// (app.Features), in their order, each row naming its events as the
// feature's families own them, and every package and page it names exists.
func TestFeatureMapIsTrue(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "features.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := featureRows(string(raw))
	var got, want []string
	for _, r := range rows {
		got = append(got, r[0])
	}
	for _, f := range app.Features() {
		want = append(want, f.Name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("docs/features.md's features (-app.Features +docs):\n%s", diff)
	}
	for i, f := range app.Features() {
		r := rows[i]
		if events := app.EventsOf([]app.Feature{f}); len(events) > 0 {
			if diff := cmp.Diff(strings.Join(events, ", "), r[2]); diff != "" {
				t.Errorf("%s: events (-families +docs):\n%s", f.Name, diff)
			}
		} else if !strings.HasPrefix(r[2], "(") {
			t.Errorf("%s owns no family, so its events cell should say where its work comes from in parentheses: %q", f.Name, r[2])
		}
		for _, cell := range r[1:] {
			for _, m := range regexp.MustCompile("`((?:app|protocol|checks)/[a-z/_.]+)`").FindAllStringSubmatch(cell, -1) {
				if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
					t.Errorf("%s names %s, which does not exist", f.Name, m[1])
				}
			}
			for _, m := range regexp.MustCompile(`\]\(([a-z-]+\.md)\)`).FindAllStringSubmatch(cell, -1) {
				if _, err := os.Stat(filepath.Join("..", "docs", m[1])); err != nil {
					t.Errorf("%s links docs/%s, which does not exist", f.Name, m[1])
				}
			}
		}
	}
}

// featureRows is the feature table's rows, each its trimmed cells.
func featureRows(doc string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| feature ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return slices.Clip(rows)
}
