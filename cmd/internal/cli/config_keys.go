package cli

import (
	"reflect"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
)

// unenforcedKeys are the config keys that are validated but change nothing
// aepgate does (docs/config.md, "What enforces each key today", marks the
// same ones "not enforced"; a test holds the two and the code together).
// risk.default: every work-unit contract must state its risk, so no
// default ever applies.
var unenforcedKeys = []string{"risk.default"}

// configKeys are the config's keys as dotted paths (risk.default), from
// config.Config's own fields: a struct's keys are listed one by one, a
// list or a value is one key. A field's "key" tag, when set, is its key
// instead ("-": none, a form of another key).
func configKeys() []string {
	return keysOf(reflect.TypeFor[config.Config](), "")
}

func keysOf(t reflect.Type, prefix string) []string {
	var keys []string
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			keys = append(keys, keysOf(f.Type, prefix)...) // embedded: its keys are the parent's
			continue
		}
		if k, ok := f.Tag.Lookup("key"); ok {
			if k != "-" {
				keys = append(keys, prefix+k)
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			keys = append(keys, keysOf(f.Type, prefix+name+".")...)
			continue
		}
		keys = append(keys, prefix+name)
	}
	return keys
}

// configGroupLong is config --help: the keys, and which of them are only
// validated, from the code's own tables.
func configGroupLong() string {
	return `The repository config, ` + config.DefaultPath + `, holds the policy aepgate
enforces. Its keys:

  ` + wrapWords(configKeys(), 76, "  ") + `

Every key is validated by every reader (an unknown key, a wrong type or an
invalid value is an error). Besides version, the schema version, every key
changes what the App, the Action or the CLI does except
` + strings.Join(unenforcedKeys, ", ") + `, which are accepted and validated only. docs/config.md's
"What enforces each key today" says which part of aepgate acts on each key.
The App reads the file from the default branch only.`
}

// wrapWords joins words with ", " into lines of at most width, each line
// after the first starting with indent.
func wrapWords(words []string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, w := range words {
		if i < len(words)-1 {
			w += ","
		}
		if line > 0 && line+1+len(w) > width {
			b.WriteString("\n" + indent)
			line = 0
		} else if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}
