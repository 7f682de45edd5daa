package checks

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/gate"
)

// ContractPath is one changed contract path and who may approve it.
type ContractPath struct {
	Path string
	// Owners may approve the change (the path's owners; the repository's
	// when no pattern names others).
	Owners []string
	// Gate is the contract-change gate that covers the path.
	Gate string
}

// whoMayAnswer are who may answer gate id: its own deciders (a contract
// gate whose paths have owners of their own), else the repository's owners.
func (w gatesWriter) whoMayAnswer(id string) string {
	d, ok := w.c.Deciders[id]
	if !ok {
		return w.owners()
	}
	return w.loginList(d)
}

// answerers is the "Only … can answer" of the summary's first line: the
// repository's owners, unless a blocker has deciders of its own, when each
// gate names its own.
func (w gatesWriter) answerers(blockers []gate.Blocker) string {
	for _, b := range blockers {
		if _, ok := w.c.Deciders[b.GateID]; ok {
			return "the owners each gate below names"
		}
	}
	return w.owners()
}

// loginList shows logins as the writer does, joined.
func (w gatesWriter) loginList(l []string) string {
	if len(l) == 0 {
		return "nobody (no owner is listed for these paths)"
	}
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = w.login(s)
	}
	return strings.Join(out, ", ")
}

// contractPaths lists, per changed contract path, who may approve it and
// the gate that asks; nothing when the head changes no contract path.
func (w gatesWriter) contractPaths() {
	if len(w.c.ContractPaths) == 0 {
		return
	}
	rows := make([][]string, 0, len(w.c.ContractPaths))
	for _, p := range w.c.ContractPaths {
		rows = append(rows, []string{code(p.Path), w.loginList(p.Owners), code(p.Gate)})
	}
	w.b.WriteString("\n### Contract paths\n\nEach changed contract path needs an approval from one of its owners.\n\n")
	table(w.b, []string{"Path", "Who may approve", "Gate"}, rows)
}
