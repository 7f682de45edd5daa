package webhook

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fields is what a set of payload views reads of a JSON value. Of an
// object it reads the members whose folded names are in members, each as
// its own fields say; of an array, every element as these fields; of any
// other value, the value. A nil *fields reads a value whole.
type fields struct {
	members map[string]*fields
}

// fieldsOf is what the views (pointers to structs, as json.Unmarshal
// takes them) read, merged: every member any of them reads. Names are
// matched as encoding/json matches them, case-insensitively, so that a
// view decodes from what is kept exactly what it decodes from the body.
func fieldsOf(views ...any) *fields {
	out := &fields{members: map[string]*fields{}}
	for _, v := range views {
		out = mergeFields(out, typeFields(reflect.TypeOf(v), map[reflect.Type]bool{}))
	}
	return out
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// typeFields is what a value of type t reads; seen holds the struct types
// being walked, so a recursive type is read whole where it recurs.
func typeFields(t reflect.Type, seen map[reflect.Type]bool) *fields {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if pt := reflect.PointerTo(t); pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if seen[t] {
			return nil
		}
		seen[t] = true
		defer delete(seen, t)
		out := &fields{members: map[string]*fields{}}
		addStructFields(out, t, seen)
		return out
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		return typeFields(t.Elem(), seen)
	}
	return nil
}

// addStructFields adds the members struct type t decodes to out: its
// exported fields by JSON name, and the fields of embedded structs as
// encoding/json promotes them.
func addStructFields(out *fields, t reflect.Type, seen map[reflect.Type]bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			if sub := typeFields(ft, seen); sub != nil {
				*out = *mergeFields(out, sub)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		key := foldName(jsonName(name, f.Name))
		out.members[key] = mergeMember(out.members, key, typeFields(f.Type, seen))
	}
}

// jsonName is a field's JSON name: its tag's, else the field's own.
func jsonName(tagged, field string) string {
	if tagged != "" {
		return tagged
	}
	return field
}

// mergeMember is sub merged with what ms already reads under key.
func mergeMember(ms map[string]*fields, key string, sub *fields) *fields {
	old, ok := ms[key]
	if !ok {
		return sub
	}
	if old == nil || sub == nil {
		return nil
	}
	return mergeFields(old, sub)
}

// mergeFields reads what a or b reads; reading whole wins.
func mergeFields(a, b *fields) *fields {
	if a == nil || b == nil {
		return nil
	}
	out := &fields{members: make(map[string]*fields, len(a.members)+len(b.members))}
	for k, v := range a.members {
		out.members[k] = v
	}
	for k, v := range b.members {
		out.members[k] = mergeMember(out.members, k, v)
	}
	return out
}

// foldName is name as encoding/json compares member names: two names
// match when their folded forms are equal (bytes.EqualFold).
func foldName(name string) string {
	return string(appendFolded(nil, []byte(name)))
}

// appendFolded appends the folded form of name to dst: ASCII letters in
// upper case, other runes as unicode.ToUpper(unicode.ToLower(r)), as
// encoding/json folds them.
func appendFolded(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		dst = utf8.AppendRune(dst, unicode.ToUpper(unicode.ToLower(r)))
		i += n
	}
	return dst
}
