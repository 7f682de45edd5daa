// Package glob is the one dialect of every path pattern aepgate reads —
// the config's globs (protocol/config: contract paths, owners' patterns,
// run folders, report paths), CODEOWNERS lines (protocol/codeowners), a
// worker report's FILES (protocol/report) and the Action's dir input:
// GitHub's CODEOWNERS rules (gitignore's), documented once in
// docs/config.md "Path patterns". Match, MatchDir and Valid are that
// dialect; Segments matches pattern segments with "**" any number of
// whole segments.
package glob

// Segments reports whether the pattern segments pat match the name
// segments name, with "**" any number of whole segments and segment
// deciding each other pair. It runs by dynamic programming, linear in the
// product of their lengths whatever the number of "**": next[j] holds
// whether pat[i+1:] matches name[j:] while row i is built.
func Segments(pat, name []string, segment func(pattern, name string) bool) bool {
	n := len(name)
	next := make([]bool, n+1)
	next[n] = true // an empty pattern matches only an empty name
	cur := make([]bool, n+1)
	for i := len(pat) - 1; i >= 0; i-- {
		for j := n; j >= 0; j-- {
			switch {
			case pat[i] == "**":
				cur[j] = next[j] || (j < n && cur[j+1])
			case j == n:
				cur[j] = false
			default:
				cur[j] = segment(pat[i], name[j]) && next[j+1]
			}
		}
		next, cur = cur, next
	}
	return next[0]
}
