package checks

import "strings"

// MergeBoard returns body with its board region replaced by region and
// every other byte kept, so text a person wrote outside the markers
// survives each rewrite. Without a region body is kept whole and region
// is appended after a blank line.
//
// The region is a line that is exactly BoardBegin followed by a hash-marker
// line, through the first line after it that is exactly BoardEnd (CRLF
// line endings allowed); of several, the last. Rendered text never holds a
// marker line (checks escapes <), so a fake marker can only come from a
// person's edit: a lone begin or end marker is text like any other, and a
// whole fake region after the App's is taken as the region.
func MergeBoard(body, region string) string {
	start, end, ok := findBoard(body)
	if !ok {
		switch {
		case body == "":
		case strings.HasSuffix(body, "\n\n"):
		case strings.HasSuffix(body, "\n"):
			body += "\n"
		default:
			body += "\n\n"
		}
		return body + region
	}
	return body[:start] + region + body[end:]
}

// BoardUnchanged reports whether body's board region is region, line
// endings aside: then the issue needs no write. A region findBoard found
// holds a hash line, so a region without one never matches.
func BoardUnchanged(body, region string) bool {
	start, end, ok := findBoard(body)
	if !ok {
		return false
	}
	crlf := strings.NewReplacer("\r\n", "\n")
	return crlf.Replace(body[start:end]) == crlf.Replace(region)
}

// findBoard returns the byte range of body's board region (MergeBoard),
// its last line's break included.
func findBoard(body string) (start, end int, ok bool) {
	type line struct{ start, end int } // end includes the line break
	var lines []line
	for i := 0; i < len(body); {
		j := strings.IndexByte(body[i:], '\n')
		next := len(body)
		if j >= 0 {
			next = i + j + 1
		}
		lines = append(lines, line{i, next})
		i = next
	}
	text := func(l line) string { return strings.TrimSuffix(strings.TrimSuffix(body[l.start:l.end], "\n"), "\r") }
	found := false
	for i := 0; i+1 < len(lines); i++ {
		if text(lines[i]) != BoardBegin || !isHashLine(text(lines[i+1])) {
			continue
		}
		for k := i + 2; k < len(lines); k++ {
			if text(lines[k]) == BoardEnd {
				start, end, found = lines[i].start, lines[k].end, true
				break
			}
		}
	}
	return start, end, found
}

// isHashLine reports whether l is a hash marker: the prefix, 64 lower-case
// hex digits and " -->".
func isHashLine(l string) bool {
	h, ok := strings.CutPrefix(l, boardHashPrefix)
	if !ok || len(h) != 64+len(" -->") || !strings.HasSuffix(h, " -->") {
		return false
	}
	return strings.Trim(h[:64], "0123456789abcdef") == ""
}
