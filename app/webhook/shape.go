package webhook

// MaxDepth is how deeply a webhook body's JSON may nest objects and
// arrays; a deeper body is refused with 400 (docs/app.md, "Endpoints").
// GitHub's payloads nest about ten deep; the databases' JSON functions stop
// at 1,000 (SQLite) and a deeper body could never be stored.
const MaxDepth = 500

// jsonShape learns, as a body streams past, what the edge checks before
// decoding it: the first byte that is not whitespace and the deepest
// nesting of objects and arrays. It does not validate: the decoder does.
type jsonShape struct {
	first    byte // 0 until a non-whitespace byte arrives
	depth    int
	maxDepth int
	inString bool
	escaped  bool
}

// Write scans p; it never fails.
func (s *jsonShape) Write(p []byte) (int, error) {
	for _, c := range p {
		switch {
		case s.inString:
			s.scanString(c)
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			if s.first == 0 {
				s.first = c
			}
			s.scanValue(c)
		}
	}
	return len(p), nil
}

func (s *jsonShape) scanString(c byte) {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\':
		s.escaped = true
	case c == '"':
		s.inString = false
	}
}

func (s *jsonShape) scanValue(c byte) {
	switch c {
	case '"':
		s.inString = true
	case '{', '[':
		s.depth++
		s.maxDepth = max(s.maxDepth, s.depth)
	case '}', ']':
		s.depth = max(s.depth-1, 0)
	}
}
