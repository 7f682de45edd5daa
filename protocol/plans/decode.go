package plans

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxFileSize is the most bytes a plan file may hold.
const MaxFileSize = 1 << 20

// ParseProgress decodes and validates progress.json in either dialect:
// aepgate's (a "version" key, decoded strictly) or the Executor skill's
// (none, read tolerantly: executor-state, "The plan and the phase
// briefs"); the error is Errors.
func ParseProgress(file string, data []byte) (*Progress, error) {
	if len(data) <= MaxFileSize && !hasVersion(index(data)) {
		p, e, ok := parseSkillProgress(file, data)
		if ok {
			validateProgress(e, p)
		}
		return p, e.err()
	}
	p := &Progress{Dialect: DialectAepgate}
	e, ok := decode(file, data, p)
	p.lines = e.lines
	if ok {
		validateProgress(e, p)
	}
	return p, e.err()
}

// ParseState decodes and validates a phase state file in either dialect:
// aepgate's (a "version" key) or the Executor skill's (none); the error is
// Errors.
func ParseState(file string, data []byte) (*State, error) {
	if len(data) <= MaxFileSize && !hasVersion(index(data)) {
		s, e, ok := parseSkillState(file, data)
		if ok {
			validateState(e, s)
		}
		return s, e.err()
	}
	s := &State{Dialect: DialectAepgate}
	e, ok := decode(file, data, s)
	s.lines = e.lines
	if ok {
		checkVersion(e, s.Version)
		validateState(e, s)
	}
	return s, e.err()
}

// ParseReview decodes and validates a review file; the error is Errors.
func ParseReview(file string, data []byte) (*Review, error) {
	r := &Review{}
	e, ok := decode(file, data, r)
	r.lines = e.lines
	if ok {
		validateReview(e, r)
	}
	return r, e.err()
}

// decode reads one JSON object into v strictly: unknown keys, wrong types,
// trailing data and oversized input are errors. ok reports whether v was
// decoded and can be validated.
func decode(file string, data []byte, v any) (*errs, bool) {
	return decodeAs(file, data, v, true)
}

// decodeAs is decode; strict false lets unknown keys through (read past,
// left in the file), as the skill's progress.json is read.
func decodeAs(file string, data []byte, v any, strict bool) (*errs, bool) {
	e := &errs{file: file}
	if len(data) > MaxFileSize {
		e.add("", "file is %d bytes, over the %d-byte limit", len(data), MaxFileSize)
		return e, false
	}
	e.lines = index(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = fmt.Errorf("unexpected data after the top-level object")
		}
	}
	if err != nil {
		e.list = append(e.list, jsonError(file, data, e.lines, err))
		return e, false
	}
	return e, true
}

// jsonError positions an encoding/json error.
func jsonError(file string, data []byte, ix lines, err error) Error {
	nl := newlines(data)
	out := Error{File: file, Message: strings.TrimPrefix(err.Error(), "json: ")}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		out.Line = lineOf(nl, syn.Offset)
		out.Message = "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		out.Line = lineOf(nl, typ.Offset)
		out.Field = typ.Field
		out.Message = fmt.Sprintf("want %s, got JSON %s", typ.Type, typ.Value)
	case strings.HasPrefix(out.Message, "unknown field "):
		name := strings.Trim(strings.TrimPrefix(out.Message, "unknown field "), `"`)
		out.Line = ix.named(name)
		out.Field = name
		out.Message = "unknown key (see https://github.com/aepgate/aepgate/blob/main/docs/plans.md for the keys of this file)"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		out.Message = "invalid JSON: unexpected end of file"
	}
	return out
}
