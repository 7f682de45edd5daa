package status

import (
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
)

// AppendJSON appends the report's JSON form to b: the bytes that
// encoding/json's Encoder writes with SetEscapeHTML(false) and
// SetIndent("", "  "), final newline included, without reflection or a
// second copy of the document. It fails, like encoding/json, on a weight
// that is not finite (Compute never produces one).
func (r Report) AppendJSON(b []byte) ([]byte, error) {
	return r.appendJSON(b, func(b []byte) []byte { return b })
}

// streamChunk is how much of the document WriteJSON holds before writing it.
const streamChunk = 64 << 10

// WriteJSON writes AppendJSON's bytes to w in chunks of about 64 KB, so a
// report of a hundred thousand items is never held whole in memory.
func (r Report) WriteJSON(w io.Writer) error {
	var werr error
	flush := func(b []byte) []byte {
		if len(b) < streamChunk || werr != nil {
			return b
		}
		_, werr = w.Write(b)
		return b[:0]
	}
	b, err := r.appendJSON(make([]byte, 0, 2*streamChunk), flush)
	if err != nil {
		return err
	}
	if werr == nil {
		_, werr = w.Write(b)
	}
	return werr
}

// appendJSON is AppendJSON with flush called between list elements: it
// returns the buffer to go on with (b itself, or b emptied once written).
func (r Report) appendJSON(b []byte, flush func([]byte) []byte) ([]byte, error) {
	b = append(b, "{\n  \"version\": "...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = appendKey(b, 1, "dir")
	b = appendString(b, r.Dir)
	b = appendKey(b, 1, "items")
	b = appendList(b, 1, r.Items, func(b []byte, it Item) []byte { return flush(appendItem(b, it)) })
	b = appendKey(b, 1, "phases")
	var err error
	b = appendList(b, 1, r.Phases, func(b []byte, p Phase) []byte {
		b = append(b, "{\n      \"id\": "...)
		b = appendString(b, p.ID)
		b = appendKey(b, 3, "title")
		b = appendOptional(b, p.Title)
		b = appendKey(b, 3, "weight")
		if math.IsNaN(p.Weight) || math.IsInf(p.Weight, 0) {
			err = errors.New("json: unsupported value: " + strconv.FormatFloat(p.Weight, 'g', -1, 64))
		}
		b = appendFloat(b, p.Weight)
		return append(b, "\n    }"...)
	})
	b = appendKey(b, 1, "counts")
	b = appendCounts(b, r.Counts)
	b = appendKey(b, 1, "open")
	b = appendList(b, 1, r.Open, func(b []byte, s string) []byte { return appendString(b, s) })
	b = appendKey(b, 1, "most_recent")
	b = appendOptional(b, r.MostRecent)
	return append(b, "\n}\n"...), err
}

// appendItem appends one item at depth 2.
func appendItem(b []byte, it Item) []byte {
	b = append(b, "{\n      \"id\": "...)
	b = appendString(b, it.ID)
	b = appendKey(b, 3, "phase")
	b = appendOptional(b, it.Phase)
	b = appendKey(b, 3, "state")
	b = appendString(b, it.State)
	b = appendKey(b, 3, "verdict")
	b = appendOptional(b, it.Verdict)
	b = appendKey(b, 3, "report")
	b = appendOptional(b, it.Report)
	b = appendKey(b, 3, "executor")
	b = appendOptional(b, it.Executor)
	b = appendKey(b, 3, "conflict")
	if it.Conflict == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, "{\n        \"status_board\": "...)
		b = appendString(b, it.Conflict.StatusBoard)
		b = appendKey(b, 4, "report_header")
		b = appendString(b, it.Conflict.ReportHeader)
		b = append(b, "\n      }"...)
	}
	return append(b, "\n    }"...)
}

// appendKey appends a comma and `"key": ` on a new line at depth.
func appendKey(b []byte, depth int, key string) []byte {
	b = append(b, ',')
	b = appendIndent(b, depth)
	b = append(b, '"')
	b = append(b, key...)
	return append(b, "\": "...)
}

func appendIndent(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

// appendList appends a JSON array whose elements sit at depth+1: null for a
// nil slice, [] for an empty one.
func appendList[T any](b []byte, depth int, list []T, elem func([]byte, T) []byte) []byte {
	switch {
	case list == nil:
		return append(b, "null"...)
	case len(list) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndent(b, depth+1)
		b = elem(b, v)
	}
	b = appendIndent(b, depth)
	return append(b, ']')
}

// appendCounts appends the counts object at depth 1, keys sorted.
func appendCounts(b []byte, counts map[string]int) []byte {
	switch {
	case counts == nil:
		return append(b, "null"...)
	case len(counts) == 0:
		return append(b, "{}"...)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndent(b, 2)
		b = appendString(b, k)
		b = append(b, ": "...)
		b = strconv.AppendInt(b, int64(counts[k]), 10)
	}
	b = appendIndent(b, 1)
	return append(b, '}')
}

func appendOptional(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}
