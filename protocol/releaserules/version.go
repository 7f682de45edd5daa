package releaserules

import (
	"encoding/base64"
	"errors"
	"regexp"
	"strings"
	"sync"
)

var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`) })

// ParseTag returns the version of a tag "v<major>.<minor>.<patch>" (digits
// only; "v3.4" and "3.4.1" are refused).
func ParseTag(tag string) (version string, ok bool) {
	v, found := strings.CutPrefix(tag, "v")
	if !found || !versionRe().MatchString(v) {
		return "", false
	}
	return v, true
}

// ErrBadBase64 is returned for a Contents payload that is not strict base64.
var ErrBadBase64 = errors.New("content is not strict base64")

// DecodeContent decodes a Contents API payload as craft does (§2.2): ASCII
// whitespace (space, TAB, LF, VT, FF, CR) is deleted, because GitHub wraps
// lines, and the rest must be strict, padded standard base64. Anything else
// — a no-break space, a "$" — fails.
func DecodeContent(s string) ([]byte, error) {
	clean := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			return -1
		}
		return r
	}, s)
	b, err := base64.StdEncoding.Strict().DecodeString(clean)
	if err != nil {
		return nil, ErrBadBase64
	}
	return b, nil
}
