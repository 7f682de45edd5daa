package codeowners

import "github.com/aepgate/aepgate/protocol/glob"

// Owners says who owns the slash-separated, repository-relative path name:
// the owners of the last rule that matches it (matched true; they may be
// none), or matched false when no rule does.
func (f *File) Owners(name string) (owners []string, matched bool) {
	for i := len(f.Rules) - 1; i >= 0; i-- {
		if Match(f.Rules[i].Pattern, name) {
			return f.Rules[i].Owners, true
		}
	}
	return nil, false
}

// Match reports whether a CODEOWNERS pattern matches the file name, by
// gitignore's rules as GitHub applies them: glob.Match, the one matcher of
// every path pattern (docs/config.md "Path patterns"). Lines with what
// GitHub does not support ("[ ]", "!", "\#") are refused by Parse.
func Match(pattern, name string) bool { return glob.Match(pattern, name) }
