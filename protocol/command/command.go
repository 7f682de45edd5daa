package command

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gate"
)

// DefaultPrefix starts every command when the repository config names none.
const DefaultPrefix = "/aep"

// Verbs of the commands.
const (
	// VerbHold puts a HOLD on: the command is named as its gate event.
	VerbHold    = gate.EventHold
	VerbResume  = "resume"
	VerbResolve = "resolve"
	VerbStatus  = "status"
	VerbRecheck = "recheck"
)

// Command is one command line of a comment. A malformed line (unknown verb,
// missing or extra arguments) is a Command too, with Err saying what is
// wrong and naming the valid forms; its other fields then say only what
// could be read.
type Command struct {
	// Line is the 1-based line of the command in the comment.
	Line int
	// Raw is the line as written, without surrounding spaces.
	Raw string
	// Verb is one of the Verb constants; empty when missing or unknown.
	Verb string
	// Reason is the text after "hold", "close" or "waive", after the
	// check in "override", or after "--" in "dispose".
	Reason string
	// Check is the aepgate check "override" names.
	Check string
	// GateID and Choice are the arguments of "resolve".
	GateID, Choice string
	// FindingID and Kind are the ledger ID and the kind of "dispose".
	FindingID, Kind string
	// Milestone and SHA are the arguments of "accept": the increment's
	// milestone number and the integrated commit it accepts (lowercase).
	// SHA is also the merge commit of "accept-merge".
	Milestone int
	SHA       string
	// Err says why the command is malformed; nil when it is well formed.
	Err error
}

// Parse returns the commands in a comment body, in line order: every line
// that starts in its first column with prefix followed by whitespace or
// the end of the line, outside fenced and indented code, block quotes, list
// items, tables and HTML (each with the lines that continue it). Matching is exact and case-sensitive, for the
// prefix and the verbs. An empty prefix means DefaultPrefix.
func Parse(body, prefix string) []Command { return parse(body, prefix, isProse) }

// isProse is the class of line a command may be on.
func isProse(c class) bool { return c == classText }

// parse is Parse with the line classes that may hold commands given by
// counts (tests pass a looser one to show what the exclusions stop).
func parse(body, prefix string, counts func(class) bool) []Command {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	if !strings.Contains(body, prefix) {
		return nil
	}
	sc := scan(body)
	var out []Command
	for i, line := range sc.lines {
		if !counts(sc.classes[i]) {
			continue
		}
		if rest, ok := afterPrefix(line, prefix); ok {
			c := parseLine(rest, prefix)
			c.Line, c.Raw = i+1, strings.TrimSpace(line)
			out = append(out, c)
		}
	}
	return out
}

// afterPrefix returns what follows prefix when line starts with it (in the
// first column) and the prefix ends there or at whitespace.
func afterPrefix(line, prefix string) (string, bool) {
	if !strings.HasPrefix(line, prefix) {
		return "", false
	}
	rest := line[len(prefix):]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return rest, true
}

// parseLine reads the verb and arguments after the prefix.
func parseLine(rest, prefix string) Command {
	args := strings.Fields(rest)
	if len(args) == 0 {
		return Command{Err: usageErr(prefix, "%s alone is not a command", prefix)}
	}
	c := Command{Verb: args[0]}
	switch c.Verb {
	case VerbHold:
		c.Reason = strings.TrimSpace(strings.TrimSpace(rest)[len(VerbHold):])
		if c.Reason == "" {
			c.Err = usageErr(prefix, "hold needs a reason")
		}
	case VerbResolve:
		if len(args) > 1 {
			c.GateID = args[1]
		}
		if len(args) > 2 {
			c.Choice = args[2]
		}
		if len(args) != 3 {
			c.Err = usageErr(prefix, "resolve takes exactly a gate id and a choice")
		}
	case VerbDispose:
		parseDispose(&c, rest, prefix)
	case VerbClose:
		parseClose(&c, rest, prefix)
	case VerbAccept:
		parseAccept(&c, args, prefix)
	case VerbAcceptMerge:
		parseAcceptMerge(&c, args, prefix)
	case VerbOverride, VerbWaive:
		parseOverrideOrWaive(&c, rest, prefix)
	case VerbResume, VerbStatus, VerbRecheck, VerbMerge:
		c.Err = noArguments(c.Verb, args, prefix)
	default:
		c.Verb = ""
		c.Err = usageErr(prefix, "%q is not a command", args[0])
	}
	return c
}

// noArguments is the error of a verb that takes no arguments given args
// (the verb first), nil when there are none.
func noArguments(verb string, args []string, prefix string) error {
	switch {
	case len(args) <= 1:
		return nil
	case verb == VerbMerge:
		return usageErr(prefix, "%s", ParseMergeArgs(strings.Join(args[1:], " ")))
	}
	return usageErr(prefix, "%s takes no arguments", verb)
}

// usageErr says what is wrong and names the valid forms.
func usageErr(prefix, format string, args ...any) error {
	forms := Forms(prefix)
	for i, f := range forms {
		forms[i] = "`" + f + "`"
	}
	return fmt.Errorf("%s; the valid forms are %s", fmt.Sprintf(format, args...), strings.Join(forms, ", "))
}
