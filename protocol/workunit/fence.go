package workunit

import "strings"

// block is one fenced code block found in Markdown text.
type block struct {
	info string // first word of the info string, lower case
	text string // the block's content, lines joined with "\n"
	line int    // 1-based line of the block's first content line in the text
}

// fencedBlocks returns the fenced code blocks of md in order (CommonMark
// rules, simplified: a fence is three or more backticks or tildes indented
// at most three spaces; an unclosed fence runs to the end of the text).
func fencedBlocks(md string) []block {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		ch, n, info, ok := openFence(lines[i])
		if !ok {
			continue
		}
		b := block{info: info, line: i + 2}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if closesFence(lines[j], ch, n) {
				break
			}
			body = append(body, lines[j])
		}
		b.text = strings.Join(body, "\n")
		out = append(out, b)
		i = j
	}
	return out
}

// firstYAML returns the first fenced block whose info string is yaml or yml.
func firstYAML(md string) (block, bool) {
	for _, b := range fencedBlocks(md) {
		if b.info == "yaml" || b.info == "yml" {
			return b, true
		}
	}
	return block{}, false
}

func openFence(line string) (ch byte, n int, info string, ok bool) {
	s, ok := trimIndent(line)
	if !ok || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, 0, "", false
	}
	ch = s[0]
	for n < len(s) && s[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	rest := strings.TrimSpace(s[n:])
	if ch == '`' && strings.Contains(rest, "`") {
		return 0, 0, "", false
	}
	if f := strings.Fields(rest); len(f) > 0 {
		info = strings.ToLower(f[0])
	}
	return ch, n, info, true
}

func closesFence(line string, ch byte, n int) bool {
	s, ok := trimIndent(line)
	if !ok {
		return false
	}
	k := 0
	for k < len(s) && s[k] == ch {
		k++
	}
	return k >= n && strings.TrimSpace(s[k:]) == ""
}

// trimIndent drops up to three leading spaces; more means indented code.
func trimIndent(line string) (string, bool) {
	i := 0
	for i < len(line) && i < 4 && line[i] == ' ' {
		i++
	}
	if i == 4 {
		return "", false
	}
	return line[i:], true
}
