package command

// isCompleteTag reports whether s is, as kind 7 needs, one complete open
// tag or closing tag followed only by spaces and tabs, its name none of
// rawTags. Beyond the spec it accepts what goldmark does: spaces after
// "</" and a closing tag ending in "/>".
func isCompleteTag(s string) bool {
	i, closing := 1, s[1] == '/'
	if closing {
		for i++; i < len(s) && s[i] == ' '; i++ {
		}
	}
	j := tagNameEnd(s, i)
	if j == i || isRawTag(s[i:j]) {
		return false
	}
	if i = j; !closing {
		if i = attributesEnd(s, i); i < 0 {
			return false
		}
	}
	i = spacesEnd(s, i)
	if i < len(s) && s[i] == '/' {
		i++
	}
	if i >= len(s) || s[i] != '>' {
		return false
	}
	return spacesEnd(s, i+1) == len(s)
}

// attributesEnd returns the end of the attributes starting at s[i], each
// whitespace, a name and an optional value; -1 when a value is malformed.
func attributesEnd(s string, i int) int {
	for {
		k := spacesEnd(s, i)
		if k == i || k == len(s) || !isAttrNameStart(s[k]) {
			return i
		}
		for k++; k < len(s) && isAttrNameByte(s[k]); k++ {
		}
		v := spacesEnd(s, k)
		if v == len(s) || s[v] != '=' {
			i = k
			continue
		}
		if i = valueEnd(s, spacesEnd(s, v+1)); i < 0 {
			return -1
		}
	}
}

// valueEnd returns the end of the attribute value at s[i]: unquoted, or
// in single or double quotes; -1 when there is none.
func valueEnd(s string, i int) int {
	if i == len(s) {
		return -1
	}
	if q := s[i]; q == '"' || q == '\'' {
		for k := i + 1; k < len(s); k++ {
			if s[k] == q {
				return k + 1
			}
		}
		return -1
	}
	k := i
	for k < len(s) && !isUnquotedStop(s[k]) {
		k++
	}
	if k == i {
		return -1
	}
	return k
}

// tagNameEnd returns the end of the tag name at s[i] (an ASCII letter, then
// letters, digits and hyphens); i when there is none.
func tagNameEnd(s string, i int) int {
	if i >= len(s) || !isLetter(s[i]) {
		return i
	}
	for i++; i < len(s) && (isLetter(s[i]) || isDigit(s[i]) || s[i] == '-'); i++ {
	}
	return i
}

// spacesEnd returns the index of the first byte at or after i that is not
// a space or a tab.
func spacesEnd(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func isRawTag(name string) bool {
	for _, t := range rawTags {
		if equalFoldASCII(name, t) {
			return true
		}
	}
	return false
}

// isBlockTag reports whether name is in blockTags, ASCII case ignored.
func isBlockTag(name string) bool {
	var buf [10]byte
	if len(name) > len(buf) {
		return false
	}
	for i := 0; i < len(name); i++ {
		buf[i] = lowerByte(name[i])
	}
	return blockTags[string(buf[:len(name)])]
}

// equalFoldASCII reports whether a equals b (lower case), ASCII case ignored.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != b[i] {
			return false
		}
	}
	return true
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isLetter(c byte) bool        { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isDigit(c byte) bool         { return '0' <= c && c <= '9' }
func isAttrNameStart(c byte) bool { return isLetter(c) || c == '_' || c == ':' }
func isAttrNameByte(c byte) bool {
	return isAttrNameStart(c) || isDigit(c) || c == '.' || c == '-'
}

// isUnquotedStop reports whether c may not appear in an unquoted
// attribute value.
func isUnquotedStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '=', '<', '>', '`':
		return true
	}
	return false
}
