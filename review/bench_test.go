package review

import (
	"fmt"
	"strings"
	"testing"
)

// bigBundle is 64 files of 8 KB (512 KB in all) and an audit with 200
// quotes spread over them, some from the ends of the files.
func bigBundle() (*Audit, Bundle) {
	var b Bundle
	for i := range MaxBundleFiles {
		var sb strings.Builder
		for line := 0; sb.Len() < 8<<10; line++ {
			fmt.Fprintf(&sb, "// file %02d line %04d: the quick brown fox jumps over the lazy dog\n", i, line)
		}
		b = append(b, File{Path: fmt.Sprintf("pkg/f%02d/file.go", i), Content: []byte(sb.String()[:8<<10])})
	}
	a := &Audit{Verdict: VerdictFail}
	for q := range 200 {
		f := b[q%len(b)]
		line := (q * 37) % 100
		quote := fmt.Sprintf("// file %02d line %04d: the quick brown fox\njumps", q%len(b), line)
		quote = strings.Replace(quote, "\njumps", " jumps over the lazy dog\n// file", 1)
		a.Findings = append(a.Findings, Finding{ID: fmt.Sprintf("F%d", q), Severity: "high",
			Evidence: []Evidence{{f.Path, quote}}})
	}
	return a, b
}

func TestBigBundleChecks(t *testing.T) {
	a, b := bigBundle()
	if b2 := b.bytes(); b2 != MaxBundleBytes {
		t.Fatalf("bundle is %d bytes, want %d", b2, MaxBundleBytes)
	}
	c, ps := CheckBundle(a, b)
	if len(ps) > 0 || len(c.Quotes) != 200 {
		t.Fatalf("%d quotes located, problems %v", len(c.Quotes), ps)
	}
}

// BenchmarkCheckBundle64Files checks a 64-file, 512 KB bundle with 200
// quotes (the bound: well under 20 ms).
func BenchmarkCheckBundle64Files(b *testing.B) {
	a, bundle := bigBundle()
	b.ReportAllocs()
	for b.Loop() {
		if _, ps := CheckBundle(a, bundle); len(ps) > 0 {
			b.Fatal(ps)
		}
	}
}
