// Package gitsha shortens commit SHAs for people to read. It is pure: no
// I/O, no GitHub import.
package gitsha

// ShortLen is how many characters of a commit SHA aepgate shows: enough to
// be unambiguous in any repository it judges, short enough for a title.
const ShortLen = 12

// Short returns the first ShortLen characters of sha, or sha itself when it
// is shorter. It keeps the case and the bytes as given: a SHA is shown as
// GitHub sent it, never normalised.
func Short(sha string) string {
	if len(sha) > ShortLen {
		return sha[:ShortLen]
	}
	return sha
}
