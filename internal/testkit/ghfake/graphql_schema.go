package ghfake

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// overlay extends GitHub's recorded schema with fields added since (issue
// dependencies); see graphql_overlay.graphql.
//
//go:embed graphql_overlay.graphql
var overlay string

// schemaGz is GitHub's published GraphQL schema: schema.graphql of the npm
// package @octokit/graphql-schema 15.26.1 (MIT, see
// graphql_schema.LICENSE.md), gzipped, so the fake serves GraphQL with no
// file beside it. A test checks it against the npm package when that is
// installed.
//
//go:embed graphql_schema.graphql.gz
var schemaGz []byte

// SchemaSource names the schema the fake serves, for error positions.
const SchemaSource = "@octokit/graphql-schema@15.26.1/schema.graphql"

var (
	schemaOnce sync.Once
	schema     *ast.Schema
	schemaErr  error
)

// GraphQLAvailable reports whether the GraphQL endpoint can serve: the
// embedded schema must load. When it cannot, the reason says why.
func GraphQLAvailable() (bool, string) {
	if _, err := loadSchema(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// RequireGraphQL fails t when GraphQL cannot be served (the embedded
// schema is always there, so that is a bug in the fake, never a missing
// fixture).
func RequireGraphQL(t fataler) {
	t.Helper()
	if ok, why := GraphQLAvailable(); !ok {
		t.Fatalf("%s", why)
	}
}

// EmbeddedSchema returns the embedded schema's SDL, uncompressed.
func EmbeddedSchema() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(schemaGz))
	if err != nil {
		return nil, fmt.Errorf("ghfake: embedded GraphQL schema: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("ghfake: embedded GraphQL schema: %w", err)
	}
	return b, nil
}

// loadSchema reads, patches and validates the schema once per process.
func loadSchema() (*ast.Schema, error) {
	schemaOnce.Do(func() { schema, schemaErr = readSchema() })
	return schema, schemaErr
}

func readSchema() (*ast.Schema, error) {
	b, err := EmbeddedSchema()
	if err != nil {
		return nil, fmt.Errorf("ghfake: GraphQL unavailable: %w", err)
	}
	doc, err := parser.ParseSchemas(validator.Prelude,
		&ast.Source{Name: SchemaSource, Input: string(b)},
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
