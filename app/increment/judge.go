// Package increment posts aepgate/increment, the increment certificate, on
// each milestone's integrated commit: it gathers the facts protocol/incrementrules
// decides on (the stories' closures and the App's evidence from the store;
// the milestone, the default branch, the readback runs, the control
// thread's acceptances and demonstrations from GitHub), writes the decision
// through the App's writer.Writer with a ledger row, and flags a milestone
// closed before it is complete as a unit closed without evidence is
// flagged: one comment, and with closure.reopen the milestone is reopened.
package increment

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Judge judges one installation's increments.
type Judge struct {
	Src   Source
	Store Store
	W     writer.Writer
	// AppLogin is the App's bot login: its comments are not commands.
	AppLogin string
	// Rules decide; nil: protocol/incrementrules's DefaultRules.
	Rules *incrementrules.Rules
	// ClosureRules decide when a story counts as done.
	ClosureRules closurerules.Rules
	// Board keeps each judged stage for the owner's board; nil keeps none.
	Board Board
	// People resolves the config's owners and coordinators (app/owners,
	// the one resolver).
	People owners.Reader
	// Contracts is the one reader of the milestone's definition and the
	// stories' contracts (their risk decides the tier), kept as first
	// judged.
	Contracts contract.Keeper
	// Signer signs the increment certificate as an in-toto statement in a
	// DSSE envelope (docs/increment.md); nil: it is not signed. Attest
	// uploads the signed bundle as an artifact attestation; nil: none.
	Signer *attest.Signer
	Attest Attester
	Log    *slog.Logger
}

// Input is what asked for a judgement.
type Input struct {
	Delivery, Event string
	Owner, Repo     string
	// edit is the milestone edit the judgement runs for (Ask.EditedBy).
	edit *edit
}

// edit is who edited a milestone's description, and to what.
type edit struct {
	milestone int
	by        closurerules.Actor
	to        string
}

// edit is the milestone edit ask runs for; nil when none.
func (ask Ask) edit() *edit {
	if len(ask.Milestones) == 0 || ask.EditedBy.Login == "" {
		return nil
	}
	return &edit{milestone: ask.Milestones[0], by: ask.EditedBy, to: ask.EditedTo}
}

// Ask names the milestones to judge: the numbers given, and every open
// milestone when Open is set — with OnlyAtMerge, only when the App holds
// evidence of a closed story merged as that commit (a workflow run on the
// default branch at any other commit cannot complete an increment; the
// story's closure, the sweep and an owner's acceptance judge the rest). ClosedBy is
// the sender of a milestone.closed delivery (who closed Milestones[0]).
// Closed (the sweep) adds the closed milestones whose closure the App
// missed (missed), flagged as milestone.closed flags them. With Open, the
// control thread's `accept` lines are answered too.
type Ask struct {
	Milestones  []int
	Open        bool
	Closed      bool
	OnlyAtMerge string
	ClosedBy    closurerules.Actor
	// EditedBy edited Milestones[0]'s description to EditedTo (the
	// signed sender of milestone.edited): an owner's edit counts whole
	// while the description is still EditedTo (app/contract).
	EditedBy closurerules.Actor
	EditedTo string
}

// Judge judges each milestone asked for, in number order, then answers
// the acceptances. The repository config and control issue are read once
// for them all.
func (j *Judge) Judge(ctx context.Context, in Input, ask Ask) error {
	if ask.OnlyAtMerge != "" {
		merged, err := j.mergedAs(ctx, in, ask.OnlyAtMerge)
		if err != nil || !merged {
			return err
		}
	}
	numbers, flagged, err := j.numbers(ctx, in, ask)
	if err != nil || len(numbers) == 0 {
		return err
	}
	snap, err := j.Src.Snapshot(ctx, gh.SnapshotRequest{Owner: in.Owner, Repo: in.Repo, Needs: snapshot.Needs{Conversation: true}})
	if err != nil {
		return err
	}
	var answers []incrementrules.Answer
	var judged []int
	in.edit = ask.edit()
	for _, n := range numbers {
		by := closurerules.Actor{}
		if len(ask.Milestones) > 0 && n == ask.Milestones[0] {
			by = ask.ClosedBy
		}
		as, ok, err := j.milestone(ctx, in, snap, n, by, by.Login != "" || flagged[n])
		if err != nil {
			return err
		}
		if ok {
			judged, answers = append(judged, n), append(answers, as...)
		}
	}
	if !ask.Open {
		return j.answer(ctx, in, snap, answers, nil)
	}
	return j.answer(ctx, in, snap, answers, judged)
}

// numbers are the milestones ask names, each once in number order, and
// those of them the sweep found closed while the App missed it.
func (j *Judge) numbers(ctx context.Context, in Input, ask Ask) ([]int, map[int]bool, error) {
	numbers := slices.Clone(ask.Milestones)
	if ask.Open {
		open, err := j.Src.OpenMilestones(ctx, in.Owner, in.Repo)
		if err != nil {
			return nil, nil, err
		}
		numbers = append(numbers, open...)
	}
	flagged := map[int]bool{}
	if ask.Closed {
		missed, err := j.missed(ctx, in)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range missed {
			numbers, flagged[n] = append(numbers, n), true
		}
	}
	slices.Sort(numbers)
	return slices.Compact(numbers), flagged, nil
}

// milestone judges one milestone under its lock and returns the answers
// to its acceptances; ok is false when there was nothing to judge.
func (j *Judge) milestone(ctx context.Context, in Input, snap *snapshot.PR, number int, by closurerules.Actor, flag bool) ([]incrementrules.Answer, bool, error) {
	unlock, err := j.Store.Lock(ctx, lockKey(in, number))
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	g, err := j.gather(ctx, in, snap, number, by)
	if err != nil || g == nil {
		return nil, false, err
	}
	v, err := j.decide(ctx, in, g)
	if err != nil {
		return nil, false, err
	}
	return refuseUnresolved(incrementrules.Answers(g.facts, j.rules()), g.people), true, j.act(ctx, in, g, v, flag)
}

// refuseUnresolved says, in each answer that does not count, that no one's
// acceptance counts while the owners cannot be resolved (problem; "" when
// they were).
func refuseUnresolved(as []incrementrules.Answer, problem string) []incrementrules.Answer {
	for i := range as {
		if problem != "" && !as[i].Accepted && !as[i].Malformed {
			as[i].Reason = "the owners cannot be resolved, so no one's acceptance counts as the owner's: " + problem
		}
	}
	return as
}

func (j *Judge) rules() incrementrules.Rules {
	if j.Rules != nil {
		return *j.Rules
	}
	return incrementrules.DefaultRules()
}

func lockKey(in Input, number int) string {
	return "increment:" + in.Owner + "/" + in.Repo + "#" + itoa(number)
}

// mergedAs reports whether the App holds evidence of an attempt merged as
// sha whose story is closed (its closure judged): only then may a readback
// at sha complete an increment. Store reads only, no GitHub call.
func (j *Judge) mergedAs(ctx context.Context, in Input, sha string) (bool, error) {
	repo := in.Owner + "/" + in.Repo
	evidence, err := j.Store.UnitEvidence(ctx, repo)
	if err != nil {
		return false, err
	}
	closed, err := j.Store.Closures(ctx, repo)
	if err != nil {
		return false, err
	}
	for unit, rows := range evidence {
		for _, raw := range rows {
			var a closurerules.Attempt
			if _, ok := closed[unit]; ok && json.Unmarshal(raw, &a) == nil && a.MergeSHA == sha {
				return true, nil
			}
		}
	}
	return false, nil
}
