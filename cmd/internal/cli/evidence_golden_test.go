package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

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
			golden.CheckString(t, filepath.Join("testdata", "evidence", tt.name+".golden"), got)
			if strings.Contains(got, "\r") {
				t.Error("output has a carriage return")
			}
		})
	}
}
