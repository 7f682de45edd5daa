package config

import (
	"go.yaml.in/yaml/v3"
)

// Entries of merge.authority besides logins.
const (
	// MergeByOwners lets every login among the owners merge.
	MergeByOwners = "owners"
	// MergeByQueue lets GitHub's merge queue merge.
	MergeByQueue = "merge-queue"
)

// Merge says who may merge a work unit's pull request (craft-rules §4.1:
// merge authority; §3.7: a protected-merge authority the owner resolved to
// a coordinator).
type Merge struct {
	// Authority lists who may merge: MergeByOwners, MergeByQueue, and the
	// logins (coordinators) the owners granted merge authority. Empty
	// means the key is unset: anyone may merge and nobody is checked.
	Authority []string `json:"authority,omitempty"`
	// Auto asks the App to enqueue (or auto-merge) a unit's pull request
	// once every aepgate check on its head is green, without an owner's
	// "merge" command (app/merge).
	Auto bool `json:"auto,omitempty"`
}

// Coordinators are the logins merge.authority names (not owners, not the
// merge queue): the owners granted them protected-merge authority.
func (m Merge) Coordinators() []string {
	var out []string
	for _, a := range m.Authority {
		if a != MergeByOwners && a != MergeByQueue {
			out = append(out, a)
		}
	}
	return out
}

// merge decodes the merge mapping into m: authority is a non-empty list of
// owners, merge-queue and logins, each once; auto is true or false.
func (d *decoder) merge(v *yaml.Node, field string, m *Merge) {
	d.fields(v, field, fieldSetters{
		"auto": func(v *yaml.Node, f string) { m.Auto = d.boolean(v, f) },
		"authority": func(v *yaml.Node, f string) {
			seen := map[string]bool{}
			m.Authority = d.list(v, f, func(item *yaml.Node, f, s string) {
				if s != MergeByOwners && s != MergeByQueue {
					d.check(item, f, checkLogin(s, true))
				}
				if key := lower(s); seen[key] {
					d.errorf(item, f, "duplicate entry %q", s)
				} else {
					seen[key] = true
				}
			})
			if v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
				d.errorf(v, f, "must list who may merge (owners, merge-queue or logins); remove the key to let anyone merge")
			}
		},
	})
}
