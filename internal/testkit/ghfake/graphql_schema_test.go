package ghfake

import (
	"bytes"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

// TestEmbeddedSchemaIsTheNpmPackage: the embedded schema is byte for byte
// the @octokit/graphql-schema package's schema.graphql, when the package
// (or the shared fixtures folder) is installed.
func TestEmbeddedSchemaIsTheNpmPackage(t *testing.T) {
	got, err := EmbeddedSchema()
	if err != nil {
		t.Fatal(err)
	}
	path, want, err := fixtures.LoadSchema()
	if err != nil {
		fixtures.Missing(t, err.Error())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("embedded schema (%d bytes) differs from %s (%d bytes): regenerate graphql_schema.graphql.gz with gzip -9 -n and update SchemaSource and graphql_schema.LICENSE.md",
			len(got), path, len(want))
	}
}

// TestEmbeddedSchemaLoads: the embedded schema parses and validates.
func TestEmbeddedSchemaLoads(t *testing.T) {
	if ok, why := GraphQLAvailable(); !ok {
		t.Fatal(why)
	}
}
