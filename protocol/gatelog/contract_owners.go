package gatelog

import (
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/login"
)

// contractGate is one contract-change gate of a head and who may answer
// it.
type contractGate struct {
	ev              gate.Event
	deciders, files []string
}

// contractGates are the contract-change gates of a pull request's head:
// one per owner group, a group being the changed contract files with the
// same owners (PullRequestState.ContractOwners; a file without an entry is
// the repository owners'). A head whose contract files all have the same
// owners opens one gate, ContractGateID(pr, head) as before owners per
// path; otherwise gate n of the groups, in the order of their first file,
// is that id with "-n" appended.
//
// One gate per group, rather than one gate whose answer must carry an
// approval from every path's owners: a gate is answered by one decision
// (gate.Replay), and a decision belongs to one set of people. So each
// group's owners answer their own gate (approve or reject) with the same
// commands and reviews as any gate, the gates check lists what still waits
// and for whom, and the gate log's replay is unchanged.
func contractGates(unit int, p PullRequestState, repo []string) []contractGate {
	groups := ownerGroups(p, repo)
	var out []contractGate
	for i, g := range groups {
		ev, ok := ContractGate(unit, p.Number, p.Head, g.files, p.HeadAt)
		if !ok {
			continue
		}
		switch {
		case len(groups) > 1:
			ev.GateID = fmt.Sprintf("%s-%d", ev.GateID, i+1)
			key := fmt.Sprintf("%s:%d", *ev.DecisionKey, i+1)
			ev.DecisionKey = &key
			ev.Question = groupQuestion(p, g)
		case len(p.ContractSources) > 0:
			ev.Question = fmt.Sprintf("Pull request #%d changes contract paths at %s: %s. Approve these changes?", p.Number, gitsha.Short(p.Head), listFiles(g.files, p.ContractSources))
		}
		out = append(out, contractGate{ev: ev, deciders: g.owners, files: g.files})
	}
	return out
}

// ownerGroup is the changed contract files one set of owners approves.
type ownerGroup struct {
	owners, files []string
}

// ownerGroups groups p's contract files by their owners, in file order.
func ownerGroups(p PullRequestState, repo []string) []ownerGroup {
	var out []ownerGroup
	for _, f := range p.ContractFiles {
		owners, ok := p.ContractOwners[f]
		if !ok {
			owners = repo
		}
		i := slices.IndexFunc(out, func(g ownerGroup) bool { return sameOwners(g.owners, owners) })
		if i < 0 {
			out = append(out, ownerGroup{owners: owners})
			i = len(out) - 1
		}
		out[i].files = append(out[i].files, f)
	}
	return out
}

// sameOwners reports whether a and b name the same logins, in any order.
func sameOwners(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, s := range a {
		if !login.In(b, s) {
			return false
		}
	}
	return true
}

// groupQuestion is the question of one group's gate: its files and who
// approves them.
func groupQuestion(p PullRequestState, g ownerGroup) string {
	return fmt.Sprintf("Pull request #%d changes contract paths owned by %s at %s: %s. Approve these changes?",
		p.Number, logins(g.owners), gitsha.Short(p.Head), listFiles(g.files, p.ContractSources))
}

// anyOwner is everyone who may decide something in in: the repository's
// owners and every contract file's owners.
func (in *Input) anyOwner() []string {
	out := slices.Clone(in.Policy.Owners)
	for _, p := range in.PullRequests {
		for _, owners := range p.ContractOwners {
			for _, o := range owners {
				if !login.In(out, o) {
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// deciders are who may take an owner-only action a: the owners of the
// gate it answers when that gate has its own (a contract gate), anyone who
// may approve some gate for an approving review not yet matched to a gate,
// the repository's owners otherwise (resume, resolve of any other gate).
func deciders(a Attempt) []string {
	switch {
	case a.Target != nil && a.Target.Deciders != nil:
		return a.Target.Deciders
	case a.Action == ActionApprove && a.Target == nil:
		return a.In.anyOwner()
	}
	return a.In.Policy.Owners
}

// contract opens the contract-change gates of a pull request's head.
func (b *builder) contract(p PullRequestState) {
	for _, g := range contractGates(b.in.Unit, p, b.in.Policy.Owners) {
		b.contractPR[g.ev.GateID] = p.Number
		b.contractFiles[g.ev.GateID] = g.files
		if !sameOwners(g.deciders, b.in.Policy.Owners) {
			b.deciders[g.ev.GateID] = g.deciders // the repository's owners need no entry
		}
		b.emit(g.ev, -1)
	}
}
