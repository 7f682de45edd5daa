package ghfake_test

import (
	"os"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestREADMEListsEveryRoute keeps the README's route list current.
func TestREADMEListsEveryRoute(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ghfake.New(t).Routes() {
		if !strings.Contains(string(readme), "`"+p+"`") {
			t.Errorf("README.md does not list route `%s`", p)
		}
	}
}
