package releaserules

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestParseTag(t *testing.T) {
	for tag, want := range map[string]string{"v1.2.3": "1.2.3", "v10.0.12": "10.0.12", "v3.4": "", "3.4.41": "", "vv3.4.41": "", "v3.4.41-rc1": "", "v3.4.41\n": "", "v١.2.3": ""} {
		got, ok := ParseTag(tag)
		if got != want || ok != (want != "") {
			t.Errorf("ParseTag(%q) = %q, %v", tag, got, ok)
		}
	}
}

func TestDecodeContent(t *testing.T) {
	payload := strings.Repeat("manifest bytes ", 10) + "!" // 151 bytes: the encoding ends in "=="
	enc := base64.StdEncoding.EncodeToString([]byte(payload))
	wrapped := ""
	for i := 0; i < len(enc); i += 60 {
		end := min(i+60, len(enc))
		wrapped += enc[i:end] + "\n"
	}
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"plain", enc, true},
		{"wrapped lines", wrapped, true},
		{"CRLF, tabs, VT, FF", strings.ReplaceAll(wrapped, "\n", "\r\n\t\v\f "), true},
		{"one LF as NBSP", strings.Replace(wrapped, "\n", "\u00a0", 1), false},
		{"dollar tail", enc + "$$", false},
		{"missing padding", strings.TrimRight(enc, "="), false},
		{"url alphabet", strings.NewReplacer("+", "-", "/", "_").Replace(base64.StdEncoding.EncodeToString([]byte{0xfb, 0xff, 0xfe})), false},
	}
	for _, tt := range tests {
		got, err := DecodeContent(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok %v", tt.name, err, tt.ok)
		}
		if err == nil && string(got) != payload {
			t.Errorf("%s: decoded %q", tt.name, got)
		}
	}
}

const hexA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

func TestParseManifest(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"two entries", hexA + "  README.md\n" + hexA + "  scripts/x.sh\n", true},
		{"no final newline", hexA + "  README.md", true},
		{"empty", "", false},
		{"blank line", hexA + "  a\n\n" + hexA + "  b\n", false},
		{"absolute", hexA + "  /etc/passwd\n", false},
		{"dot-dot", hexA + "  a/../b\n", false},
		{"double slash", hexA + "  a//b\n", false},
		{"dot slash", hexA + "  ./a\n", false},
		{"trailing slash", hexA + "  a/\n", false},
		{"backslash", hexA + "  a\\b\n", false},
		{"NUL", hexA + "  a\x00b\n", false},
		{"one space", hexA + " a\n", false},
		{"uppercase hex", strings.ToUpper(hexA) + "  a\n", false},
		{"short hex", hexA[:63] + "  a\n", false},
		{"duplicate", hexA + "  a\n" + hexA + "  a\n", false},
		{"CRLF", hexA + "  a\r\n", false},
		{"bad UTF-8", hexA + "  a\xff\n", false},
	}
	for _, tt := range tests {
		m, err := ParseManifest([]byte(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok %v", tt.name, err, tt.ok)
		}
		if tt.ok && m[strings.Fields(tt.in)[1]] != hexA {
			t.Errorf("%s: manifest %v", tt.name, m)
		}
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(hexA + "  README.md\n"))
	f.Add([]byte(hexA + "  a/../b\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ParseManifest(raw)
		if err != nil {
			return
		}
		if len(m) == 0 {
			t.Fatal("an accepted manifest is empty")
		}
		for p, d := range m {
			if SafePath(p) != nil || len(d) != 64 {
				t.Fatalf("accepted unsafe entry %q %q", p, d)
			}
		}
	})
}

func FuzzDecodeContent(f *testing.F) {
	f.Add("aGVsbG8=\n")
	f.Add("aGVs\u00a0bG8=")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := DecodeContent(s)
		if err != nil {
			return
		}
		if again := base64.StdEncoding.EncodeToString(b); strings.Map(func(r rune) rune {
			if strings.ContainsRune(" \t\n\v\f\r", r) {
				return -1
			}
			return r
		}, s) != again {
			t.Fatalf("decoded %q from %q, which is not its strict encoding", b, s)
		}
	})
}
