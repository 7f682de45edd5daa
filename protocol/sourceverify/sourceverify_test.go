package sourceverify_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

const (
	sha  = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	tree = "1111111111111111111111111111111111111111"
)

// sign signs payload (a statement's JSON) with a fixed key.
func sign(t *testing.T, payload string) ([]byte, attest.Keyring) {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	env, err := attest.Sign(s, attest.PayloadType, []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return raw, attest.Keyring{s.Public()}
}

// coverageStatement is a coverage statement of octo/demo@sha of class.
func coverageStatement(class coverage.Class, extraSubject string) string {
	return `{"_type":"https://in-toto.io/Statement/v1","predicate":{"class":"` + string(class) + `","onto":"` + tree +
		`","repository":"https://github.com/octo/demo","reviewed":{"base":"` + tree + `","head":"` + tree + `"},"reviews":[{"digest":{"sha256":"ab"},"uri":"u"}],"shippedTree":"` + tree +
		`"},"predicateType":"https://aepgate.dev/source-review-coverage/v0.1","subject":[{` + extraSubject + `"digest":{"gitCommit":"` + sha + `"},"uri":"https://github.com/octo/demo/commit/` + sha + `"}]}`
}

// TestVerify reads the statements as plain JSON: a covered statement for
// its repository passes and names what it reviewed; a residual class, a
// fork, an unknown field and a repeated key are refused.
func TestVerify(t *testing.T) {
	want := sourceverify.Want{Repository: "octo/demo", SHA: sha}
	tests := []struct {
		name    string
		payload string
		want    sourceverify.Want
		err     string
	}{
		{"identity", coverageStatement(coverage.Identity, ""), want, ""},
		{"without a repository", coverageStatement(coverage.Replay, ""), sourceverify.Want{}, ""},
		{"residual", coverageStatement(coverage.Residual, ""), want, "want identity or replay"},
		{"a fork", coverageStatement(coverage.Identity, ""), sourceverify.Want{Repository: "mallory/demo"}, "subject"},
		{"an unknown subject field", coverageStatement(coverage.Identity, `"approved":true,`), want, "unknown field"},
		{"a repeated key", coverageStatement(coverage.Identity, `"uri":"https://github.com/mallory/demo/commit/`+sha+`",`), want, "statement"},
		{"another predicate type", strings.Replace(coverageStatement(coverage.Identity, ""), "source-review-coverage/v0.1", "other", 1), want, "predicateType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, ring := sign(t, tt.payload)
			v, err := sourceverify.Verify(raw, ring, tt.want)
			if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
			if err == nil && (v.SHA != sha || len(v.Names) != 1 || v.Names[0] != "ab" || v.RepositoryChecked != (tt.want.Repository != "")) {
				t.Errorf("verified = %+v", v)
			}
		})
	}
}
