package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The package's -update flag may be declared by another test file as
// `var update = flag.Bool("update", …)`; package variables initialise before
// init functions, so this registers it only when nobody else has.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func updatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestEvidenceGolden pins what the evidence commands print, stdout and
// stderr, for representative inputs.
func TestEvidenceGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"certificate-validate-mismatch", []string{"certificate", "validate", "testdata/evidence/certificate-mismatch.json"}},
		{"certificate-scan-bad", []string{"certificate", "scan", "testdata/evidence/certificates-bad"}},
		{"gate-eval-hold-go", []string{"gate", "eval", "testdata/evidence/gates-hold-go.json", "--action", "merge", "--work-unit", "7"}},
		{"gate-eval-resumed", []string{"gate", "eval", "testdata/evidence/gates-resumed.json", "--action", "merge", "--work-unit", "7", "--external-effect", "publish-release"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, errOut := runCLI(t, tt.args...)
			got := "== stdout\n" + out + "== stderr\n" + errOut
			path := filepath.Join("testdata", "evidence", tt.name+".golden")
			if updatingGolden() {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
			if strings.Contains(got, "\r") {
				t.Error("output has a carriage return")
			}
		})
	}
}
