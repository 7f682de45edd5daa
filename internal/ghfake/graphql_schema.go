package ghfake

import (
	_ "embed"
	"fmt"
	"sync"
	"testing"

	"github.com/aepgate/aepgate/internal/fixtures"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// overlay extends GitHub's recorded schema with fields added since (issue
// dependencies); see graphql_overlay.graphql.
//
//go:embed graphql_overlay.graphql
var overlay string

var (
	schemaOnce sync.Once
	schema     *ast.Schema
	schemaErr  error
)

// GraphQLAvailable reports whether the GraphQL endpoint can serve: it
// needs GitHub's schema, which internal/fixtures finds (the npm package
// @octokit/graphql-schema, else the shared folder). When it cannot, the
// reason says why; tests that use GraphQL should skip with it.
func GraphQLAvailable() (bool, string) {
	if _, err := loadSchema(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// RequireGraphQL skips t when GraphQL cannot be served, or fails it under
// CI=true (fixtures.Missing).
func RequireGraphQL(t testing.TB) {
	t.Helper()
	if ok, why := GraphQLAvailable(); !ok {
		fixtures.Missing(t, why)
	}
}

// loadSchema reads, patches and validates the schema once per process.
func loadSchema() (*ast.Schema, error) {
	schemaOnce.Do(func() { schema, schemaErr = readSchema() })
	return schema, schemaErr
}

func readSchema() (*ast.Schema, error) {
	path, b, err := fixtures.LoadSchema()
	if err != nil {
		return nil, fmt.Errorf("ghfake: GraphQL unavailable: %w", err)
	}
	doc, err := parser.ParseSchemas(validator.Prelude,
		&ast.Source{Name: path, Input: string(b)},
		&ast.Source{Name: "graphql_overlay.graphql", Input: overlay})
	if err != nil {
		return nil, fmt.Errorf("ghfake: parse GraphQL schema: %w", err)
	}
	dedupe(doc)
	s, err := validator.ValidateSchemaDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("ghfake: load GraphQL schema: %w", err)
	}
	return s, nil
}

// dedupe drops repeated field definitions (GitHub's published schema
// defines EnterpriseOwnerInfo.repositoryDeployKeySetting twice, which strict
// validation refuses); the first definition wins.
func dedupe(doc *ast.SchemaDocument) {
	for _, d := range doc.Definitions {
		seen := map[string]bool{}
		kept := d.Fields[:0]
		for _, fd := range d.Fields {
			if !seen[fd.Name] {
				seen[fd.Name] = true
				kept = append(kept, fd)
			}
		}
		d.Fields = kept
	}
}
