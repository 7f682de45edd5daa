package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Errors of a body's one decoding pass.
var (
	errNotObject = errors.New("body is not a JSON object")
	errTooDeep   = errors.New("body nested too deeply")
)

// reader is a decoder with the buffer it reads a body from, reused
// across bodies. The decoder reads a bytes.Buffer's bytes in place, so a
// body is never copied.
type reader struct {
	body bytes.Buffer
	dec  *jsontext.Decoder
}

var readers = sync.Pool{New: func() any {
	r := new(reader)
	r.dec = jsontext.NewDecoder(&r.body)
	return r
}}

// decoderOptions accept what encoding/json accepts: duplicate names and
// invalid UTF-8 (replaced when a view decodes it).
var decoderOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// pass is one decoding pass over a body: it validates the body as one
// JSON object nested at most limit deep, collects its top-level keys and
// writes what want reads of it into kept.
type pass struct {
	dec   *jsontext.Decoder
	raw   []byte
	limit int
	keys  []string
	kept  []byte
	fold  []byte
}

// decodeOnce reads raw in one pass: its top-level keys (at most maxKeys,
// one longer than maxKeyLen as ""), and the JSON object of the members
// want reads of it, with their names and values as the body has them. It
// fails with errTooDeep past limit levels of nesting and errNotObject for
// anything but one valid JSON object.
func decodeOnce(raw []byte, want *fields, limit int) (kept []byte, keys []string, err error) {
	rd := readers.Get().(*reader)
	rd.body = *bytes.NewBuffer(raw)
	dec := rd.dec
	dec.Reset(&rd.body, decoderOptions...)
	defer func() {
		// Let go of the body before the reader is pooled.
		rd.body = bytes.Buffer{}
		dec.Reset(&rd.body)
		readers.Put(rd)
	}()
	p := &pass{dec: dec, raw: raw, limit: limit, kept: make([]byte, 0, 1024)}
	if dec.PeekKind() != '{' {
		return nil, nil, errNotObject
	}
	if err := p.object(want, true); err != nil {
		return nil, nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, nil, errNotObject
	}
	return p.kept, p.keys, nil
}

// syntax maps a decoder's error to the pass's: too deep stays so, the
// rest is not a JSON object.
func syntax(err error) error {
	if errors.Is(err, errTooDeep) {
		return err
	}
	return fmt.Errorf("%w: %v", errNotObject, err)
}

// begin reads the '{' or '[' that starts a value and checks its depth.
func (p *pass) begin() error {
	if _, err := p.dec.ReadToken(); err != nil {
		return syntax(err)
	}
	if p.dec.StackDepth() > p.limit {
		return errTooDeep
	}
	return nil
}

// value reads the next value, keeping what want reads of it.
func (p *pass) value(want *fields) error {
	switch p.dec.PeekKind() {
	case '{':
		if want != nil {
			return p.object(want, false)
		}
	case '[':
		if want != nil {
			return p.array(want)
		}
	default:
		v, err := p.dec.ReadValue()
		if err != nil {
			return syntax(err)
		}
		p.kept = append(p.kept, v...)
		return nil
	}
	start := p.dec.InputOffset()
	if err := p.skip(); err != nil {
		return err
	}
	p.kept = append(p.kept, trimLead(p.raw[start:p.dec.InputOffset()])...)
	return nil
}

// object reads an object, keeping the members want reads; top collects
// their names as the body's top-level keys.
func (p *pass) object(want *fields, top bool) error {
	if err := p.begin(); err != nil {
		return err
	}
	p.kept = append(p.kept, '{')
	first := true
	for p.dec.PeekKind() != '}' {
		name, err := p.dec.ReadValue()
		if err != nil {
			return syntax(err)
		}
		if top {
			p.addKey(name)
		}
		sub, ok := want.member(p.folded(name))
		if !ok {
			if err := p.skip(); err != nil {
				return err
			}
			continue
		}
		if !first {
			p.kept = append(p.kept, ',')
		}
		first = false
		p.kept = append(append(p.kept, name...), ':')
		if err := p.value(sub); err != nil {
			return err
		}
	}
	return p.end('}')
}

// array reads an array, keeping what want reads of every element.
func (p *pass) array(want *fields) error {
	if err := p.begin(); err != nil {
		return err
	}
	p.kept = append(p.kept, '[')
	for i := 0; p.dec.PeekKind() != ']'; i++ {
		if i > 0 {
			p.kept = append(p.kept, ',')
		}
		if err := p.value(want); err != nil {
			return err
		}
	}
	return p.end(']')
}

// end reads the token closing an object or array (a syntax error shows
// as an invalid kind in PeekKind, and here).
func (p *pass) end(c byte) error {
	if _, err := p.dec.ReadToken(); err != nil {
		return syntax(err)
	}
	p.kept = append(p.kept, c)
	return nil
}

// skip reads the next value without keeping it, checking its depth.
func (p *pass) skip() error {
	k := p.dec.PeekKind()
	if k != '{' && k != '[' {
		if _, err := p.dec.ReadValue(); err != nil {
			return syntax(err)
		}
		return nil
	}
	depth := p.dec.StackDepth()
	for {
		tok, err := p.dec.ReadToken()
		if err != nil {
			return syntax(err)
		}
		switch tok.Kind() {
		case '{', '[':
			if p.dec.StackDepth() > p.limit {
				return errTooDeep
			}
		case '}', ']':
			if p.dec.StackDepth() == depth {
				return nil
			}
		}
	}
}

// member is what f reads of the member with the folded name, and
// whether it reads that member; a nil f reads every member whole.
func (f *fields) member(folded []byte) (*fields, bool) {
	if f == nil {
		return nil, true
	}
	sub, ok := f.members[string(folded)]
	return sub, ok
}

// folded is a member name (quoted, as sent) unquoted and folded as
// encoding/json compares names, in a buffer reused by the next call.
func (p *pass) folded(quoted []byte) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		var s string
		if json.Unmarshal(quoted, &s) != nil {
			return nil
		}
		inner = []byte(s)
	}
	p.fold = appendFolded(p.fold[:0], inner)
	return p.fold
}

// addKey remembers a top-level name as encoding/json decodes it: at most
// maxKeys of them, one longer than maxKeyLen bytes as sent as "" (too
// long to be a GitHub key, it matches none).
func (p *pass) addKey(quoted []byte) {
	if len(p.keys) >= maxKeys {
		return
	}
	var k string
	switch {
	case len(quoted)-2 > maxKeyLen:
	case !bytes.ContainsFunc(quoted, func(r rune) bool { return r == '\\' || r >= utf8.RuneSelf }):
		k = string(quoted[1 : len(quoted)-1])
	default:
		if json.Unmarshal(quoted, &k) != nil {
			k = ""
		}
	}
	p.keys = append(p.keys, k)
}

// trimLead drops what precedes a value after the previous token:
// whitespace and the separator.
func trimLead(b []byte) []byte {
	return bytes.TrimLeft(b, " \t\r\n:,")
}
