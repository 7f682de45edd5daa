package config

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// mode reads the mode: enforce or advisory.
func (d *decoder) mode(v *yaml.Node, f string) string {
	s, ok := d.str(v, f)
	if ok && s != ModeEnforce && s != ModeAdvisory {
		d.errorf(v, f, "must be %q or %q, not %q", ModeEnforce, ModeAdvisory, s)
	}
	return s
}

// commandPrefix reads the command prefix (checkPrefix).
func (d *decoder) commandPrefix(v *yaml.Node, f string) string {
	s, ok := d.str(v, f)
	if ok {
		d.check(v, f, checkPrefix(s))
	}
	return s
}

// config decodes the top-level mapping into c.
func (d *decoder) config(root *yaml.Node, c *Config) {
	if root.Kind != yaml.MappingNode {
		d.errorf(root, "", "the file must be a mapping of keys (version, owners, ...), not %s", kindName(root))
		return
	}
	versionSet := false
	d.fields(root, "", fieldSetters{
		"version": func(v *yaml.Node, f string) {
			versionSet = true
			if n, ok := d.integer(v, f); ok && n != 1 {
				d.errorf(v, f, "unsupported version %d; the only version is 1", n)
			}
		},
		"extends":      func(v *yaml.Node, f string) { c.Extends = d.extends(v, f) },
		"owners":       func(v *yaml.Node, f string) { d.owners(v, f, c) },
		"coordinators": func(v *yaml.Node, f string) { d.coordinators(v, f, c) },
		"auditors":     func(v *yaml.Node, f string) { c.Auditors = d.logins(v, f, true) },
		"agents":       func(v *yaml.Node, f string) { d.agents(v, f, c) },
		"audit_triage": func(v *yaml.Node, f string) { c.AuditTriage = d.boolean(v, f) },
		"run_documents": func(v *yaml.Node, f string) {
			c.RunDocuments = d.folders(v, f)
		},
		"negative_controls":  func(v *yaml.Node, f string) { c.NegativeControls = d.controls(v, f) },
		"required_workflows": func(v *yaml.Node, f string) { d.requiredWorkflows(v, f, &c.RequiredWorkflows) },
		"contract_paths":     func(v *yaml.Node, f string) { c.ContractPaths = d.paths(v, f, true) },
		"default_contract_paths": func(v *yaml.Node, f string) {
			c.DefaultContractPaths = d.list(v, f, func(item *yaml.Node, f, s string) { d.check(item, f, checkDefaultContractPath(s)) })
		},
		"risk":           func(v *yaml.Node, f string) { d.risk(v, f, &c.Risk) },
		"limits":         func(v *yaml.Node, f string) { d.limits(v, f, &c.Limits) },
		"stall":          func(v *yaml.Node, f string) { d.stall(v, f, &c.Stall) },
		"release":        func(v *yaml.Node, f string) { d.release(v, f, &c.Release) },
		"readback":       func(v *yaml.Node, f string) { d.readback(v, f, &c.Readback) },
		"merge":          func(v *yaml.Node, f string) { d.merge(v, f, &c.Merge) },
		"report":         func(v *yaml.Node, f string) { d.report(v, f, &c.Report) },
		"mode":           func(v *yaml.Node, f string) { c.Mode = d.mode(v, f) },
		"deploy":         func(v *yaml.Node, f string) { d.deploy(v, f, &c.Deploy) },
		"closure":        func(v *yaml.Node, f string) { d.closure(v, f, &c.Closure) },
		"gates":          func(v *yaml.Node, f string) { c.Gates = d.gates(v, f) },
		"command_prefix": func(v *yaml.Node, f string) { c.CommandPrefix = d.commandPrefix(v, f) },
	})
	if !versionSet {
		d.errorf(root, "version", `required; start the file with "version: 1"`)
	}
}

// requiredWorkflows decodes the required_workflows mapping into w.
func (d *decoder) requiredWorkflows(v *yaml.Node, field string, w *RequiredWorkflows) {
	d.fields(v, field, fieldSetters{
		"pull_request": func(v *yaml.Node, f string) { w.PullRequest = d.names(v, f) },
		"readback":     func(v *yaml.Node, f string) { w.Readback = d.names(v, f) },
	})
}

// risk decodes the risk mapping into r.
func (d *decoder) risk(v *yaml.Node, field string, r *Risk) {
	d.fields(v, field, fieldSetters{"default": func(v *yaml.Node, f string) {
		if s, ok := d.str(v, f); ok {
			r.Default = s
			d.check(v, f, checkRisk(s))
		}
	}})
}

// limits decodes the limits mapping into l.
func (d *decoder) limits(v *yaml.Node, field string, l *Limits) {
	d.fields(v, field, fieldSetters{
		"corrections": func(v *yaml.Node, f string) { l.Corrections = d.bounded(v, f, 0, 100) },
		"exchanges":   func(v *yaml.Node, f string) { l.Exchanges = d.bounded(v, f, 1, 100) },
		"attempts_per_unit": func(v *yaml.Node, f string) {
			l.AttemptsPerUnit = d.bounded(v, f, 1, maxAttemptsPerUnit)
		},
		"lanes_per_increment": func(v *yaml.Node, f string) {
			l.LanesPerIncrement = d.bounded(v, f, 1, maxLanesPerIncrement)
		},
	})
}

// check records msg as an error at v unless it is empty.
func (d *decoder) check(v *yaml.Node, field, msg string) {
	if msg != "" {
		d.errorf(v, field, "%s", msg)
	}
}

// str decodes a scalar as a string. Numbers are taken as written (a login
// or workflow may be all digits); booleans, lists and mappings are errors.
func (d *decoder) str(v *yaml.Node, field string) (string, bool) {
	if v.Kind == yaml.ScalarNode {
		switch v.Tag {
		case "!!str", "!!int", "!!float":
			return v.Value, true
		}
	}
	d.errorf(v, field, "must be a string, not %s", kindName(v))
	return "", false
}

// boolean decodes a scalar true or false; anything else is an error and
// decodes as false.
func (d *decoder) boolean(v *yaml.Node, field string) bool {
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		d.errorf(v, field, "must be true or false, not %s", kindName(v))
		return false
	}
	return b
}

// integer decodes a scalar integer.
func (d *decoder) integer(v *yaml.Node, field string) (int, bool) {
	var n int
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&n) != nil {
		d.errorf(v, field, "must be a whole number, not %s", kindName(v))
		return 0, false
	}
	return n, true
}

// bounded decodes an integer in [lo, hi]; out of range it records an error
// and returns lo.
func (d *decoder) bounded(v *yaml.Node, field string, lo, hi int) int {
	n, ok := d.integer(v, field)
	if !ok {
		return lo
	}
	if n < lo || n > hi {
		d.errorf(v, field, "must be between %d and %d, not %d", lo, hi, n)
		return lo
	}
	return n
}

// list decodes a sequence of strings, calling each for every item with its
// node and field path, and returns the items that decoded.
func (d *decoder) list(v *yaml.Node, field string, each func(item *yaml.Node, f, s string)) []string {
	if v.Kind != yaml.SequenceNode {
		d.errorf(v, field, "must be a list, not %s", kindName(v))
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, item := range v.Content {
		f := indexField(field, i)
		s, ok := d.str(item, f)
		if !ok {
			continue
		}
		each(item, f, s)
		out = append(out, s)
	}
	return out
}

// logins decodes a list of GitHub logins; duplicates (case-insensitive)
// are errors. Bots ("name[bot]") are allowed only where allowBot is set.
func (d *decoder) logins(v *yaml.Node, field string, allowBot bool) []string {
	seen := map[string]bool{}
	return d.list(v, field, func(item *yaml.Node, f, s string) {
		if _, team := ParseTeam(s); team {
			d.check(item, f, checkTeam(s))
		} else {
			d.check(item, f, checkLogin(s, allowBot))
		}
		if key := lower(s); seen[key] {
			d.errorf(item, f, "duplicate login %q", s)
		} else {
			seen[key] = true
		}
	})
}

// paths decodes a list of repository-relative paths or globs.
func (d *decoder) paths(v *yaml.Node, field string, glob bool) []string {
	return d.list(v, field, func(item *yaml.Node, f, s string) {
		d.check(item, f, d.pathRule(s, glob))
	})
}

// folders decodes run_documents: paths or globs of folders, which the
// Action and the CLI open relative to the repository root, so none may
// start with "/".
func (d *decoder) folders(v *yaml.Node, field string) []string {
	return d.list(v, field, func(item *yaml.Node, f, s string) {
		msg := d.pathRule(s, true)
		if msg == "" && strings.HasPrefix(s, "/") {
			msg = fmt.Sprintf("%q must be relative to the repository root (a folder, not a pattern anchored with \"/\")", s)
		}
		d.check(item, f, msg)
	})
}

// names decodes a list of non-empty names (workflow names).
func (d *decoder) names(v *yaml.Node, field string) []string {
	return d.list(v, field, func(item *yaml.Node, f, s string) {
		if trimSpace(s) == "" {
			d.errorf(item, f, "must not be empty")
		}
	})
}

func sortStrings(s []string) { sort.Strings(s) }
