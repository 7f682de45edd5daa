// Package canonical reads strict JSON and writes canonical JSON: the compact,
// sorted-key, ASCII-only form craft-protocol hashes (Python's
// json.dumps(v, sort_keys=True, separators=(",", ":"))). Certificates, gate
// decision fingerprints and release receipts share it.
package canonical

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf16"
)

// Marshal returns the canonical JSON of v. v is first encoded with
// encoding/json (so structs and their tags work), then re-read and written
// with sorted keys, no insignificant whitespace and non-ASCII escaped.
func Marshal(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	var b bytes.Buffer
	if err := write(&b, generic); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write appends v in canonical form to b. v must be made of the values a
// JSON decoder gives (nil, bool, json.Number, string, []any and
// map[string]any); Marshal is Write after a JSON round trip of any Go
// value, and Write is for callers that build such a value themselves and
// need no round trip.
func Write(b *bytes.Buffer, v any) error { return write(b, v) }

func write(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(x.String())
	case string:
		writeString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := write(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		return writeObject(b, x)
	default:
		return fmt.Errorf("canonical json: unsupported value of type %T", v)
	}
	return nil
}

func writeObject(b *bytes.Buffer, m map[string]any) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, k)
		b.WriteByte(':')
		if err := write(b, m[k]); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// writeString writes s as Python's ensure_ascii encoder does: the short
// escapes for quote, backslash and \b \f \n \r \t, \u00XX for other
// characters outside printable ASCII, and UTF-16 escapes above U+FFFF.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= 0x20 && r <= 0x7e:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
}
