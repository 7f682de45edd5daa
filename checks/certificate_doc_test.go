package checks

import (
	"os"
	"strings"
	"testing"
)

// TestEvidenceDocShowsTheCertificateRun keeps docs/evidence.md's example of
// the aepgate/certificate check run equal to what CertificateRun renders
// (its golden file): title, external ID and summary.
func TestEvidenceDocShowsTheCertificateRun(t *testing.T) {
	doc, err := os.ReadFile("../docs/evidence.md")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/certificate.golden")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "<!-- certificate-run:start -->\n")
	block, _, ok2 := strings.Cut(block, "<!-- certificate-run:end -->")
	if !ok || !ok2 {
		t.Fatal("docs/evidence.md has no certificate-run block")
	}
	g := string(golden)
	field := func(name string) string {
		_, v, _ := strings.Cut(g, "\n"+name+": ")
		v, _, _ = strings.Cut(v, "\n")
		return v
	}
	_, summary, _ := strings.Cut(g, "--- summary\n")
	summary, _, _ = strings.Cut(summary, "--- text\n")
	var quoted strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(summary, "\n"), "\n") {
		quoted.WriteString(strings.TrimRight("> "+line, " ") + "\n")
	}
	for _, want := range []string{"**" + field("title") + "**", "external ID `" + field("external_id") + "`", quoted.String()} {
		if !strings.Contains(block, want) {
			t.Errorf("docs/evidence.md's certificate run lacks:\n%s", want)
		}
	}
}
