package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const authGo = "package auth\n\nfunc Check(token string) bool {\n\treturn token != \"\"\n}\n"

// cite is an audit whose single finding quotes each evidence entry.
func cite(es ...Evidence) *Audit {
	return &Audit{Verdict: VerdictFail, Findings: []Finding{{ID: "F1", Severity: "high", Evidence: es}}}
}

func TestLocate(t *testing.T) {
	tests := []struct {
		content, quote string
		start, end     int
		ok             bool
	}{
		{authGo, "package auth", 1, 1, true},
		{authGo, "func Check(", 3, 3, true},
		{authGo, "bool {\n\treturn", 3, 4, true},
		{authGo, "return token != \"\"\n", 4, 4, true},
		{authGo, "}\n", 5, 5, true},
		{authGo, "\n", 1, 1, true},
		{authGo, "\n\nfunc", 1, 3, true},
		{authGo, "return  token", 0, 0, false},
		{authGo, "func check(", 0, 0, false},
		{authGo, "", 0, 0, false},
		{"a\r\nb\r\n", "a\nb", 0, 0, false},
		{"a\r\nb\r\n", "a\r\nb", 1, 2, true},
		{"x\nx\n", "x", 1, 1, true},
	}
	for _, tt := range tests {
		s, e, ok := Locate([]byte(tt.content), tt.quote)
		if s != tt.start || e != tt.end || ok != tt.ok {
			t.Errorf("Locate(%q, %q) = %d, %d, %v; want %d, %d, %v", tt.content, tt.quote, s, e, ok, tt.start, tt.end, tt.ok)
		}
	}
}

func TestIdentity(t *testing.T) {
	b := Bundle{{Path: "z.go", Content: []byte("z")}, {Path: "a/b.go", Content: []byte(authGo)}}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	listing := sum(authGo) + "  a/b.go\n" + sum("z") + "  z.go\n"
	if got, want := b.Identity(), sum(listing); got != want {
		t.Errorf("Identity() = %s, want %s", got, want)
	}
	if got := (Bundle{b[1], b[0]}).Identity(); got != b.Identity() {
		t.Errorf("identity depends on order")
	}
	if got, want := Bundle(nil).Identity(), sum(""); got != want {
		t.Errorf("empty bundle: %s, want %s", got, want)
	}
	changed := Bundle{{Path: "z.go", Content: []byte("z ")}, b[1]}
	if changed.Identity() == b.Identity() {
		t.Errorf("a changed byte keeps the identity")
	}
}

func TestCheckBundle(t *testing.T) {
	ok := Evidence{"src/auth.go", "func Check("}
	auth := File{Path: "src/auth.go", Content: []byte(authGo)}
	many := make([]Evidence, 65)
	for i := range many {
		many[i] = Evidence{fmt.Sprintf("f%02d.go", i), "x"}
	}
	tests := []struct {
		name string
		a    *Audit
		b    Bundle
		want []string
	}{
		{"valid", cite(ok, Evidence{"src/auth.go", "bool {\n\treturn"}), Bundle{auth}, nil},
		{"quote not verbatim", cite(ok, Evidence{"src/auth.go", "func  Check("}), Bundle{auth},
			[]string{`$.findings[0].evidence[1].quote: does not occur verbatim in "src/auth.go" at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)`}},
		{"quote across a gap", cite(Evidence{"src/auth.go", "package auth\nfunc Check("}), Bundle{auth},
			[]string{`$.findings[0].evidence[0].quote: does not occur verbatim in "src/auth.go" at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)`}},
		{"private path", cite(Evidence{".env", "TOKEN=abc"}), Bundle{{Path: ".env", Content: []byte("TOKEN=abc\n")}},
			[]string{`$.findings[0].evidence[0].path: ".env" is a private or credential path (.env*); evidence never quotes it`}},
		{"traversal", cite(Evidence{"../secret", "x"}), nil, []string{`$.findings[0].evidence[0].path: "../secret" leaves the repository (..)`}},
		{"not read", cite(ok), nil, []string{`$.findings[0].evidence[0].path: "src/auth.go" was not read at the audited commit`}},
		{"missing", cite(ok), Bundle{{Path: "src/auth.go", Missing: true}}, []string{`$.findings[0].evidence[0].path: "src/auth.go" does not exist at the audited commit`}},
		{"symlink", cite(ok), Bundle{{Path: "src/auth.go", Symlink: true, Content: []byte("../../etc/passwd")}},
			[]string{`$.findings[0].evidence[0].path: "src/auth.go" is a symbolic link at the audited commit; quote the file it points to`}},
		{"NUL", cite(ok), Bundle{{Path: "src/auth.go", Content: []byte("func Check(\x00")}}, []string{`$.findings[0].evidence[0].path: "src/auth.go" holds a NUL byte; binary files are not evidence`}},
		{"not UTF-8", cite(ok), Bundle{{Path: "src/auth.go", Content: []byte("func Check(\xff")}}, []string{`$.findings[0].evidence[0].path: "src/auth.go" is not UTF-8 text`}},
		{"65 files", cite(many...), nil, []string{"$: the review cites 65 files; at most 64 are read for one review, so it is refused (never truncated): cite fewer files"}},
		{"too many bytes", cite(ok), Bundle{{Path: "src/auth.go", Content: []byte("func Check(" + strings.Repeat("x", MaxBundleBytes))}},
			[]string{"$: the cited files hold 524299 bytes; at most 524288 (512 KB) are read for one review, so it is refused (never truncated): cite fewer or smaller files"}},
		{"file not cited", cite(ok), Bundle{auth, {Path: "other.go"}}, []string{`$: the evidence bundle holds "other.go", which the review does not cite`}},
		{"file twice", cite(ok), Bundle{auth, auth}, []string{`$: the evidence bundle holds "src/auth.go" twice`}},
		{"every list is checked", &Audit{
			Verification: []Verification{{Evidence: []Evidence{{"src/auth.go", "nope"}}}},
			Verdicts:     []Judgement{{Evidence: []Evidence{{"src/auth.go", "nope either"}}}}}, Bundle{auth},
			[]string{`$.verification[0].evidence[0].quote: does not occur verbatim in "src/auth.go" at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)`,
				`$.verdicts[0].evidence[0].quote: does not occur verbatim in "src/auth.go" at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ps := CheckBundle(tt.a, tt.b)
			var got []string
			for _, p := range ps {
				got = append(got, p.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if c.BundleID != tt.b.Identity() {
				t.Errorf("BundleID = %s, want the bundle's identity", c.BundleID)
			}
		})
	}
}

func TestCheckBundleLocations(t *testing.T) {
	a := cite(Evidence{"src/auth.go", "func Check("}, Evidence{"src/auth.go", "bool {\n\treturn"})
	c, ps := CheckBundle(a, Bundle{{Path: "src/auth.go", Content: []byte(authGo)}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	want := map[Evidence]Location{
		{"src/auth.go", "func Check("}:      {"src/auth.go", 3, 3},
		{"src/auth.go", "bool {\n\treturn"}: {"src/auth.go", 3, 4},
	}
	if diff := cmp.Diff(want, c.Quotes); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// without returns DefaultBundleRules without the named rule.
func without(name string) []BundleRule {
	rules := DefaultBundleRules()
	i := slices.IndexFunc(rules, func(r BundleRule) bool { return r.Name == name })
	if i < 0 {
		panic("no bundle rule " + name)
	}
	return slices.Delete(rules, i, i+1)
}

// TestBundleRulesNegativeControl shows each bundle rule is what refuses
// its case: with the rule removed, the same evidence passes.
func TestBundleRulesNegativeControl(t *testing.T) {
	ok := Evidence{"src/auth.go", "func Check("}
	many, manyFiles := make([]Evidence, 65), make(Bundle, 65)
	for i := range many {
		many[i] = Evidence{fmt.Sprintf("f%02d.go", i), "x"}
		manyFiles[i] = File{Path: many[i].Path, Content: []byte("x")}
	}
	big := File{Path: "src/auth.go", Content: []byte("func Check(" + strings.Repeat("x", MaxBundleBytes))}
	tests := []struct {
		rule string
		a    *Audit
		b    Bundle
	}{
		{"file-limit", cite(many...), manyFiles},
		{"byte-limit", cite(ok), Bundle{big}},
		{"cited-files-only", cite(ok), Bundle{{Path: "src/auth.go", Content: []byte(authGo)}, {Path: "other.go"}}},
		{"path", cite(Evidence{".env", "TOKEN=abc"}), Bundle{{Path: ".env", Content: []byte("TOKEN=abc\n")}}},
		{"exists", cite(Evidence{"gone.go", "x"}), Bundle{{Path: "gone.go", Missing: true, Content: []byte("x")}}},
		{"no-symlink", cite(Evidence{"link.go", "root:x"}), Bundle{{Path: "link.go", Symlink: true, Content: []byte("root:x")}}},
		{"text", cite(Evidence{"bin.dat", "ab"}), Bundle{{Path: "bin.dat", Content: []byte("ab\x00\xff")}}},
		{"verbatim", cite(Evidence{"src/auth.go", "func  Check("}), Bundle{{Path: "src/auth.go", Content: []byte(authGo)}}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if _, ps := CheckBundle(tt.a, tt.b); len(ps) == 0 {
				t.Fatalf("with every rule, the evidence passes")
			}
			if _, ps := CheckBundleWith(tt.a, tt.b, without(tt.rule)); len(ps) != 0 {
				t.Errorf("without %s: %v; want no problem", tt.rule, ps)
			}
		})
	}
	t.Run("read", func(t *testing.T) {
		a := cite(Evidence{"unread.go", "x"})
		rules := slices.DeleteFunc(without("read"), func(r BundleRule) bool { return r.Name == "verbatim" })
		if _, ps := CheckBundleWith(a, nil, rules); len(ps) != 0 {
			t.Errorf("without read and verbatim: %v", ps)
		}
	})
}
