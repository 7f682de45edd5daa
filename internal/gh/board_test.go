package gh

import (
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

func TestBoardQueriesMatchGitHubSchema(t *testing.T) {
	schema := loadSchema(t, string(fixtures.Schema(t)))
	for _, q := range []string{boardQuery, pinIssueMutation} {
		if _, errs := gqlparser.LoadQueryWithRules(schema, q, nil); len(errs) > 0 {
			t.Errorf("query invalid: %v\n%s", errs, q)
		}
	}
}
