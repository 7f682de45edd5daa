package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// Output formats: --format takes one of these on every command.
const (
	formatText  = "text"
	formatJSON  = "json"
	formatSARIF = "sarif"
)

// formatValue is --format's value: one of allowed, refused otherwise at
// parse time (so a wrong value is a flag error, exit 2, before anything
// runs).
type formatValue struct {
	p       *string
	allowed []string
}

func (v *formatValue) String() string { return *v.p }

func (v *formatValue) Type() string { return "format" }

func (v *formatValue) Set(s string) error {
	if !slices.Contains(v.allowed, s) {
		return fmt.Errorf("--format must be %s, not %q", orList(v.allowed), s)
	}
	*v.p = s
	return nil
}

// orList is "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// jsonAlias is --json, kept where a command had it: the same as
// --format json.
type jsonAlias struct{ p *string }

func (v jsonAlias) String() string   { return fmt.Sprint(*v.p == formatJSON) }
func (v jsonAlias) Type() string     { return "bool" }
func (v jsonAlias) IsBoolFlag() bool { return true }

func (v jsonAlias) Set(s string) error {
	switch s {
	case "true":
		*v.p = formatJSON
	case "false":
		*v.p = formatText
	default:
		return fmt.Errorf("--json takes no value, got %q", s)
	}
	return nil
}

// addFormat registers --format on cmd, defaulting to text and taking text,
// json and the extra formats named (sarif), into p.
func addFormat(cmd *cobra.Command, p *string, extra ...string) {
	*p = formatText
	allowed := append([]string{formatText, formatJSON}, extra...)
	cmd.Flags().Var(&formatValue{p: p, allowed: allowed}, "format", "output format: "+strings.Join(allowed, ", "))
}

// addFormatJSONFirst registers --format on cmd, defaulting to json (for
// commands whose output was always JSON, as aepkit's is) and taking text.
func addFormatJSONFirst(cmd *cobra.Command, p *string) {
	*p = formatJSON
	cmd.Flags().Var(&formatValue{p: p, allowed: []string{formatJSON, formatText}}, "format", "output format: json (default) or text")
}

// addJSONAlias registers --json on cmd as an alias of --format json.
func addJSONAlias(cmd *cobra.Command, p *string) {
	cmd.Flags().Var(jsonAlias{p: p}, "json", "the same as --format json")
	cmd.Flags().Lookup("json").NoOptDefVal = "true"
}
