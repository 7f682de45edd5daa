package verdict

import (
	"slices"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
)

// contractOwners are who may approve each changed contract file by the
// config's owners per path (config.OwnersOf); for the auditor's parts of
// run documents (parts), those owners and the auditors, less the pull
// request's author (AuditorPartDeciders). The files GitHub did not list
// (filesUnlisted) have no entry: the repository's owners approve them,
// since nobody can tell whose paths they are.
func (ev *Evaluation) contractOwners(files []string, parts map[string]string) map[string][]string {
	perPath := len(ev.Cfg.PathOwners) > 0 || ev.Cfg.CodeOwners != nil
	if !perPath && len(parts) == 0 {
		return nil // one list owns every path
	}
	out := map[string][]string{}
	for _, f := range files {
		owners := ev.Cfg.Owners
		if perPath {
			owners = ev.Cfg.OwnersOf(f)
		}
		switch {
		case f == filesUnlisted:
		case parts[f] != "":
			out[f] = AuditorPartDeciders(owners, ev.Cfg.Auditors, ev.Snap.Pull.Author.Login)
		case perPath:
			out[f] = owners
		}
	}
	return out
}

// contractSources say what each changed contract file changes: a source
// of authority (config.AuthoritySource) or the auditor's part of run
// documents (parts).
func (ev *Evaluation) contractSources(files []string, parts map[string]string) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		if src := ev.Cfg.AuthoritySource(f); src != "" {
			out[f] = "changes a source of authority: " + src
		}
		if why := parts[f]; why != "" {
			out[f] = why
		}
	}
	return out
}

// contractPaths are the pull request's changed contract paths with who may
// approve each and the gate that asks, in the order the gates list them.
func (ev *Evaluation) contractPaths(g *gatelog.Result) []checks.ContractPath {
	p := ev.Snap.Pull
	if p == nil {
		return nil
	}
	var out []checks.ContractPath
	for _, id := range contractGateIDs(g, p.Number) {
		owners, ok := g.Deciders[id]
		if !ok {
			owners = ev.Cfg.Owners
		}
		for _, f := range g.ContractFiles[id] {
			out = append(out, checks.ContractPath{Path: f, Owners: owners, Gate: id})
		}
	}
	return out
}

// contractGateIDs are the contract gates of pull request pr, in the order
// the gate log created them.
func contractGateIDs(g *gatelog.Result, pr int) []string {
	var out []string
	for _, e := range g.Log.Events {
		if n, ok := g.ContractPR[e.GateID]; ok && n == pr && e.Type == gate.EventCreate && g.ContractFiles[e.GateID] != nil {
			out = append(out, e.GateID)
		}
	}
	return out
}

// blockingOwners are the repository's owners and, after them, the owners
// of each blocking contract gate's paths, each once.
func (ev *Evaluation) blockingOwners() []string {
	out := slices.Clone(ev.Cfg.Owners)
	g := ev.GateLog()
	for _, b := range g.Blockers {
		for _, o := range g.Deciders[b.GateID] {
			if !login.In(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}
