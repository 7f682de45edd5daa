package plans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// maxDepth bounds how deep the line index follows nested values; the
// schemas nest four levels.
const maxDepth = 16

// lines maps a member's path ("phases[0].id") to its 1-based line.
type lines map[string]int

// at returns the line of field or of its closest enclosing member; 1 when
// none is known.
func (l lines) at(field string) int {
	for field != "" {
		if n, ok := l[field]; ok {
			return n
		}
		i := strings.LastIndexAny(field, ".[")
		if i < 0 {
			break
		}
		field = field[:i]
	}
	return 1
}

// named returns the line of the first member called key, at any depth.
func (l lines) named(key string) int {
	best := 0
	for p, n := range l {
		if (p == key || strings.HasSuffix(p, "."+key)) && (best == 0 || n < best) {
			best = n
		}
	}
	return best
}

// index walks data's JSON tokens and records each member's line. It is
// best effort: on a syntax error it returns what it found so far.
func index(data []byte) lines {
	nl := newlines(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	ix := lines{}
	w := walker{dec: dec, out: ix, line: func() int { return lineOf(nl, dec.InputOffset()) }}
	_ = w.value("", 0)
	return ix
}

type walker struct {
	dec  *json.Decoder
	out  lines
	line func() int
}

func (w walker) value(path string, depth int) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	if _, ok := w.out[path]; !ok && path != "" {
		w.out[path] = w.line()
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if depth >= maxDepth {
		return w.skip()
	}
	for i := 0; w.dec.More(); i++ {
		p := fmt.Sprintf("%s[%d]", path, i)
		if d == '{' {
			k, err := w.dec.Token()
			if err != nil {
				return err
			}
			p = strings.TrimPrefix(path+"."+fmt.Sprint(k), ".")
			w.out[p] = w.line()
		}
		if err := w.value(p, depth+1); err != nil {
			return err
		}
	}
	_, err = w.dec.Token()
	return err
}

// skip consumes the rest of a value whose opening delimiter was read.
func (w walker) skip() error {
	for open := 1; open > 0; {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			open++
		case json.Delim('}'), json.Delim(']'):
			open--
		}
	}
	return nil
}

func newlines(data []byte) []int64 {
	var nl []int64
	for i, c := range data {
		if c == '\n' {
			nl = append(nl, int64(i))
		}
	}
	return nl
}

// lineOf returns the 1-based line holding byte offset off.
func lineOf(nl []int64, off int64) int {
	return sort.Search(len(nl), func(i int) bool { return nl[i] >= off }) + 1
}
