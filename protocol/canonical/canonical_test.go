package canonical

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"sorted keys", map[string]any{"b": 1, "a": []any{true, nil}}, `{"a":[true,null],"b":1}`},
		{"python ascii escapes", "é<>&/\x01\u2028😀", `"\u00e9<>&/\u0001\u2028\ud83d\ude00"`},
		{"short escapes", "\"\\\n\r\t\b\f\x7f", `"\"\\\n\r\t\b\f\u007f"`},
		{"struct tags", struct {
			Z string `json:"z"`
			A int    `json:"a"`
		}{"x", 2}, `{"a":2,"z":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		opt     Options
		wantErr bool
	}{
		{"object", `{"a":1}`, Options{}, false},
		{"duplicate last wins", `{"a":1,"a":2}`, Options{}, false},
		{"duplicate refused", `{"a":1,"a":2}`, Options{RejectDuplicateKeys: true}, true},
		{"nested duplicate refused", `{"a":{"b":1,"b":1}}`, Options{RejectDuplicateKeys: true}, true},
		{"trailing data", `{"a":1}x`, Options{}, true},
		{"two values", `1 2`, Options{}, true},
		{"bom", "\xef\xbb\xbf{}", Options{}, true},
		{"bad utf8", "\"\xff\"", Options{}, true},
		{"nan", `NaN`, Options{}, true},
		{"infinity", `{"a":Infinity}`, Options{}, true},
		{"trailing comma", `[1,]`, Options{}, true},
		{"deep", string(make([]byte, 0)) + deep(600), Options{}, true},
		{"empty", ``, Options{}, true},
		{"only whitespace", " \n\t", Options{}, true},
		{"whitespace around", " \n{\"a\":1}\n ", Options{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in), tt.opt)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrNotStrict) {
				t.Errorf("error %v does not wrap ErrNotStrict", err)
			}
		})
	}
	if _, err := Parse([]byte(`{"a":1}`), Options{}); err != nil {
		t.Fatal(err)
	}
	v, _ := Parse([]byte(`{"a":1,"a":2}`), Options{})
	if diff := cmp.Diff("2", v.(map[string]any)["a"].(interface{ String() string }).String()); diff != "" {
		t.Errorf("last value should win: %s", diff)
	}
}

func deep(n int) string {
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		b = append(b, '[')
	}
	for i := 0; i < n; i++ {
		b = append(b, ']')
	}
	return string(b)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",null,true]}`, `{"a":1,"a":2}`, `[`, "\xef\xbb\xbf{}", `1e400`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := Parse(raw, Options{RejectDuplicateKeys: true})
		if err != nil {
			return
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("parsed value does not marshal: %v", err)
		}
		again, err := Parse(out, Options{RejectDuplicateKeys: true})
		if err != nil {
			t.Fatalf("canonical output %q does not parse: %v", out, err)
		}
		out2, _ := Marshal(again)
		if string(out) != string(out2) {
			t.Fatalf("canonical form not stable: %q vs %q", out, out2)
		}
	})
}

// Empty and truncated input say so in words, not as a decoder's "EOF".
func TestParseSaysEmptyOrTruncated(t *testing.T) {
	for in, want := range map[string]string{"": "the input is empty", " \n": "the input is empty", `{"a":`: "ends inside the JSON value", `[1,`: "ends inside the JSON value"} {
		_, err := Parse([]byte(in), Options{})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "EOF") {
			t.Errorf("Parse(%q) = %v, want an error saying %q", in, err, want)
		}
	}
}
