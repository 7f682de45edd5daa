package certificate

import (
	"encoding/json"
	"testing"
)

// TestCraftTextIsPythonStr checks craftText against Python's str() of the
// values its JSON parser makes.
func TestCraftTextIsPythonStr(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"run-1", "run-1"}, {nil, "None"}, {true, "True"}, {false, "False"},
		{json.Number("123"), "123"}, {json.Number("-0"), "0"}, {json.Number("-7"), "-7"},
		{json.Number("12345678901234567890123"), "12345678901234567890123"},
		{json.Number("1.0"), "1.0"}, {json.Number("1.50"), "1.5"}, {json.Number("1e2"), "100.0"},
		{json.Number("-0.0"), "-0.0"}, {json.Number("0.0001"), "0.0001"}, {json.Number("0.00001"), "1e-05"},
		{json.Number("1e15"), "1000000000000000.0"}, {json.Number("1e16"), "1e+16"},
		{json.Number("1.5e300"), "1.5e+300"}, {json.Number("1E400"), "inf"}, {json.Number("-1E400"), "-inf"},
		{json.Number("1e-400"), "0.0"}, {json.Number("0.1"), "0.1"}, {json.Number("123456.789"), "123456.789"},
	}
	for _, tt := range tests {
		got, exact := craftText(tt.in)
		if got != tt.want || !exact {
			t.Errorf("craftText(%#v) = %q, %v; want %q, true", tt.in, got, exact, tt.want)
		}
	}
	for _, in := range []any{[]any{}, map[string]any{}} {
		if _, exact := craftText(in); exact {
			t.Errorf("craftText(%#v) claims an exact Python text", in)
		}
	}
}
