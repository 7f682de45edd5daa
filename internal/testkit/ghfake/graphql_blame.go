package ghfake

import "strings"

// blame serves Commit.blame(path:): the file's lines at c as ranges of
// consecutive lines introduced by one commit. A line is carried back to a
// parent whose copy of the file holds it in the same order (a longest
// common subsequence of lines, the first parent first, as git blame
// passes blame to parents), else c introduced it. GitHub's age (1 new to
// 10 old) is the fake's 1 for c's own lines and 10 for older ones.
func (r *commitRes) blame(x *gqlExec, args map[string]any) (any, error) {
	if err := x.need("contents"); err != nil {
		return nil, err
	}
	p, _ := args["path"].(string)
	p = cleanPath(p)
	if _, ok := r.c.files[p]; !ok {
		return nil, &gqlError{kind: "NOT_FOUND", msg: "Could not resolve file for path '" + p + "'."}
	}
	owners := blameLines(r.s, r.c, p, map[string][]string{})
	ranges := []any{}
	for start := 0; start < len(owners); {
		end := start
		for end+1 < len(owners) && owners[end+1] == owners[start] {
			end++
		}
		age := 10
		if owners[start] == r.c.sha {
			age = 1
		}
		ranges = append(ranges, mapRes{"BlameRange", map[string]any{"startingLine": start + 1, "endingLine": end + 1,
			"age": age, "commit": &commitRes{s: r.s, c: r.s.git.commits[owners[start]]}}})
		start = end + 1
	}
	return mapRes{"Blame", map[string]any{"ranges": ranges}}, nil
}

// blameLines returns, for each line of p at c, the commit that introduced
// it; memo holds what was computed, by commit and path.
func blameLines(s *repoState, c *commitObj, p string, memo map[string][]string) []string {
	key := c.sha + "\x00" + p
	if got, ok := memo[key]; ok {
		return got
	}
	lines := fileLines(s.git.blobs[c.files[p]])
	owners := make([]string, len(lines))
	for i := range owners {
		owners[i] = c.sha
	}
	for _, ps := range c.parents {
		pc := s.git.commits[ps]
		blob, ok := pc.files[p]
		if !ok {
			continue
		}
		from := blameLines(s, pc, p, memo)
		for _, m := range commonLines(fileLines(s.git.blobs[blob]), lines) {
			if owners[m[1]] == c.sha {
				owners[m[1]] = from[m[0]]
			}
		}
	}
	memo[key] = owners
	return owners
}

// fileLines splits a blob into lines, without their line ends.
func fileLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// commonLines returns the index pairs (in a, in b) of a longest common
// subsequence of a and b's lines.
func commonLines(a, b []string) [][2]int {
	n, m := len(a), len(b)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}
