// Package login compares GitHub logins. A login is ASCII (letters, digits
// and hyphens, and "[bot]" for an App's bot account) and GitHub compares it
// without case, in ASCII only: Unicode case folding would let "K" (U+212A
// KELVIN SIGN) or "ſ" (U+017F LONG S) stand for "k" or "s", and so let a
// login nobody listed pass for an owner's.
package login

// Equal reports whether a and b are the same login: equal but for the case
// of ASCII letters. An empty login, or one holding a byte outside ASCII,
// equals nothing.
func Equal(a, b string) bool {
	if a == "" || len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x >= 0x80 || y >= 0x80 {
			return false
		}
		if lower(x) != lower(y) {
			return false
		}
	}
	return true
}

// In reports whether login equals one of list (Equal).
func In(list []string, login string) bool {
	for _, l := range list {
		if Equal(l, login) {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
