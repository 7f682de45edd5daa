package lint

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// The negative-control alternatives are compiled as ASCII patterns and run
// on text folded to ASCII, because a regexp holding Unicode classes (\p{L},
// \p{N}, \p{Z}) takes a hundred times longer to compile, and lint compiles
// about a hundred of them on every run. Folding keeps every character in the
// same classes of those patterns: a non-ASCII letter or number becomes '_'
// (a word character no pattern names), a non-ASCII space becomes '\v'
// (whitespace for \s, and not for RE2's \s, as before), '’' becomes '\''
// (the patterns only ever name the two together), and anything else becomes
// '\x01' (punctuation no pattern names). FuzzAlternatives holds the result
// to the Unicode patterns.

// asciiShorthand expands the shorthands of rundoc.Compile to ASCII classes.
var asciiShorthand = strings.NewReplacer(
	`\s`, `[\t\n\v\f\r \x{1c}-\x{1f}]`,
	`\w`, `[0-9A-Za-z_]`,
	`\W`, `[^0-9A-Za-z_]`,
	`⟨`, `(?:^|[^0-9A-Za-z_])`,
	`⟩`, `(?:$|[^0-9A-Za-z_])`,
	`’`, `'`,
)

// compileASCII compiles an alternative for folded text.
func compileASCII(pattern string) *regexp.Regexp {
	return regexp.MustCompile(asciiShorthand.Replace(pattern))
}

// foldASCII maps s (lowercased, valid UTF-8) to ASCII as described above;
// ASCII text is returned as is.
func foldASCII(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s))
	copy(b, s[:i])
	for _, r := range s[i:] {
		switch {
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		case rundoc.IsWordRune(r):
			b = append(b, '_')
		case rundoc.IsSpace(r):
			b = append(b, '\v')
		case r == '’':
			b = append(b, '\'')
		default:
			b = append(b, '\x01')
		}
	}
	return string(b)
}
