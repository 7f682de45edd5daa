package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCertificateValidate(t *testing.T) {
	tests := []struct {
		file       string
		wantCode   int
		wantErrors []string
		wantCert   bool
	}{
		{"certificate-valid.json", 0, []string{}, true},
		{"certificate-mismatch.json", 1, []string{"audited-head-mismatch"}, true},
		{"certificate-independence.json", 0, []string{}, true},
		{"certificate-independence-instructor.json", 1, []string{"invalid:independence"}, true},
		{"certificate-array.json", 1, []string{"invalid-json"}, false},
		{"certificates-bad/demo/empty.json", 1, []string{"invalid-json"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code, out, errOut := runCLI(t, "certificate", "validate", "testdata/evidence/"+tt.file)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.wantCode, errOut)
			}
			var got struct {
				Valid       bool           `json:"valid"`
				Errors      []string       `json:"errors"`
				Certificate map[string]any `json:"certificate"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if diff := cmp.Diff(tt.wantErrors, got.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if (got.Certificate != nil) != tt.wantCert {
				t.Errorf("certificate present = %v, want %v", got.Certificate != nil, tt.wantCert)
			}
			for _, tok := range tt.wantErrors {
				if !strings.Contains(errOut, tok+": expected") {
					t.Errorf("stderr lacks an explanation of %s:\n%s", tok, errOut)
				}
			}
		})
	}
}

func TestCertificateValidateStdin(t *testing.T) {
	raw, err := os.ReadFile("testdata/evidence/certificate-valid.json")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runFull(context.Background(), []string{"certificate", "validate", "-"}, bytes.NewReader(raw), &out, &errb); code != 0 {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

// TestCertificateValidateMissingFilePrintsInvalidJSON: a file that cannot
// be read prints the same JSON as a malformed one, the reason on stderr.
func TestCertificateValidateMissingFilePrintsInvalidJSON(t *testing.T) {
	_, bad, _ := runCLI(t, "certificate", "validate", "testdata/evidence/certificate-array.json")
	for _, path := range []string{"testdata/evidence/nope.json", "/dev/zero", "testdata/evidence"} {
		code, out, errOut := runCLI(t, "certificate", "validate", path)
		if code != 2 || out != bad {
			t.Errorf("%s: exit %d, stdout %q; want 2 and %q", path, code, out, bad)
		}
		if want := path + ": invalid-json: expected a readable certificate file, saw "; !strings.HasPrefix(errOut, want) {
			t.Errorf("%s: stderr %q, want it to start %q", path, errOut, want)
		}
	}
}

func TestCertificateScan(t *testing.T) {
	tests := []struct {
		dir         string
		wantCode    int
		wantHealthy bool
		wantCount   int
	}{
		{"certificates", 0, true, 1},
		{"certificates-bad", 1, false, 2},
		{"certificates-empty", 0, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			code, out, _ := runCLI(t, "certificate", "scan", "testdata/evidence/"+tt.dir)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d", code, tt.wantCode)
			}
			var got scanReport
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.Healthy != tt.wantHealthy || got.Count != tt.wantCount || len(got.Certificates) != tt.wantCount {
				t.Errorf("got %+v", got)
			}
		})
	}
	code, out, _ := runCLI(t, "certificate", "scan", "testdata/evidence/certificates-bad")
	want := `"errors": [
        "invalid-json"
      ]`
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, `"reused-ci-as-readback"`) {
		t.Errorf("scan rows:\n%s", out)
	}
}
