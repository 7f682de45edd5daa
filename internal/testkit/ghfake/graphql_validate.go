package ghfake

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// ValidateQuery checks query against the schema the fake serves (GitHub's
// published schema and its overlay), as the endpoint does before it
// answers: a query that fails here fails on GitHub. It lets internal/gh
// test a query whose timeline items the fake does not serve yet.
func ValidateQuery(query string) error {
	s, err := loadSchema()
	if err != nil {
		return fmt.Errorf("validate query: %w", err)
	}
	doc, perr := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if perr != nil {
		return fmt.Errorf("validate query: %w", perr)
	}
	if errs := validator.ValidateWithRules(s, doc, nil); len(errs) > 0 {
		return fmt.Errorf("validate query: %w", errs)
	}
	return nil
}
