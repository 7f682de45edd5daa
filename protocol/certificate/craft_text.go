package certificate

import (
	"encoding/json"
	"strconv"
	"strings"
)

// craftText returns the text craft-protocol's validator compares a JSON
// value by: Python's str() of the value its JSON parser produced. Strings
// are themselves, null is "None", booleans are "True" and "False", integers
// are their decimal text and other numbers are Python's float repr
// ("1.0", "100.0", "1e+16", "inf"). exact is false for arrays and objects,
// whose Python text this package does not reproduce.
func craftText(v any) (text string, exact bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case nil:
		return "None", true
	case bool:
		if x {
			return "True", true
		}
		return "False", true
	case json.Number:
		return craftNumber(x), true
	}
	return "", false
}

// craftNumber is Python's str() of the int or float its JSON parser makes
// of n.
func craftNumber(n json.Number) string {
	s := n.String()
	if integerText().MatchString(s) {
		if s == "-0" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && f > 0:
		return "inf"
	case err != nil && f < 0:
		return "-inf"
	}
	return pythonFloatRepr(f)
}

// pythonFloatRepr formats f as Python's repr does: the shortest digits that
// round-trip, fixed notation with at least one decimal when the decimal
// exponent is in [-4, 16), scientific notation ("1.5e-05", "1e+16")
// otherwise.
func pythonFloatRepr(f float64) string {
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	exp, err := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	if err != nil || exp < -4 || exp >= 16 {
		return sci
	}
	fixed := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(fixed, ".") {
		fixed += ".0"
	}
	return fixed
}

// craftKey is the key two run-list entries collide by: craft's text of the
// entry, or one shared key for every array or object (craft compares those
// by a Python text this package does not reproduce, so any two count as the
// same entry; a list holding them is refused anyway).
func craftKey(v any) string {
	if t, exact := craftText(v); exact {
		return t
	}
	return "\x00array-or-object"
}
