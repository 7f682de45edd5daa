// Package contract keeps each work unit's contract and each milestone's
// increment definition as the App first judged them, in the App's store,
// and is the one reader every judge takes them from (the pull-request
// checks, closures, increments): a later change counts only when someone
// entitled made it, or when it asks at least as much (protocol/workunit
// KeepContract, KeepIncrement). Anything else is judged at the stricter
// value, shown as tampering and recorded in the ledger (docs/gates.md,
// "Kept contracts").
package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Store keeps contracts (store.DB).
type Store interface {
	KeptContract(ctx context.Context, repo, kind string, number int) (store.KeptContract, bool, error)
	KeepContract(ctx context.Context, k store.KeptContract, prev *store.KeptContract, e store.Entry, now time.Time) error
}

var _ Store = (*store.DB)(nil)

// Rules decide what of a changed contract counts: Unit for a unit's
// contract, Increment for a milestone's definition.
type Rules struct {
	Unit      func(kept *workunit.Contract, next workunit.Contract, entitled bool) (workunit.Contract, []string)
	Increment func(kept *workunit.IncrementSpec, next workunit.IncrementSpec, entitled bool) (workunit.IncrementSpec, []string)
}

// DefaultRules are protocol/workunit's: the stricter of the kept and the
// changed value counts unless someone entitled made the change.
func DefaultRules() Rules {
	return Rules{Unit: workunit.KeepContract, Increment: workunit.KeepIncrement}
}

// Keeper reads the contracts that count and keeps them.
type Keeper struct {
	Store Store
	// Rules decide; the zero value means DefaultRules.
	Rules Rules
	// Delivery is the webhook delivery the ledger rows come from ("" for
	// the sweep).
	Delivery string
}

func (k Keeper) rules() Rules {
	r := DefaultRules()
	if k.Rules.Unit != nil {
		r.Unit = k.Rules.Unit
	}
	if k.Rules.Increment != nil {
		r.Increment = k.Rules.Increment
	}
	return r
}

// Issue is what Unit reads of a unit's issue: its body and who last edited
// it ("" when never edited or GitHub does not say).
type Issue struct {
	Number       int
	Body, Editor string
}

// Unit is the contract that counts for issue is of repo (owner/name): the
// one reader of a unit's contract. The first valid contract judged is kept;
// a later body counts whole when entitled(its editor) (an owner or a
// coordinator edited it last) or when it asks at least as much as the kept
// contract; otherwise the stricter of the two counts and the change is
// shown as tampering. A body whose contract is invalid never replaces a
// kept contract. nil when nothing is kept and the body's contract is
// invalid (its problems then show). Every change of what is kept is
// ledgered.
func (k Keeper) Unit(ctx context.Context, repo string, is Issue, entitled func(login string) bool) (*workunit.Kept, error) {
	live, probs := workunit.ParseContract(is.Body)
	row, ok, err := k.Store.KeptContract(ctx, repo, store.ContractUnit, is.Number)
	if err != nil {
		return nil, err
	}
	var kept *workunit.Contract
	if ok {
		kept = new(workunit.Contract)
		if err := json.Unmarshal(row.Contract, kept); err != nil {
			return nil, fmt.Errorf("kept contract of %s#%d: %w", repo, is.Number, err)
		}
	} else if len(probs) > 0 {
		return nil, nil
	}
	may := len(probs) == 0 && is.Editor != "" && entitled(is.Editor)
	counts, ignored := k.rules().Unit(kept, live, may)
	out := &workunit.Kept{Contract: counts, Ignored: ignored}
	if len(ignored) > 0 {
		out.EditedBy = is.Editor
		if out.EditedBy == "" && ok && row.Tamper == strings.Join(ignored, "; ") {
			out.EditedBy = row.TamperedBy // a reader that names no editor keeps the one seen
		}
	}
	return out, k.keep(ctx, repo, store.ContractUnit, is.Number, rowOrNil(row, ok), counts, ignored, out.EditedBy)
}

// First keeps issue number's contract from body, a body GitHub signed in an
// issues delivery (as opened, or as it was before an edit), when none is
// kept yet and its contract is valid; otherwise it does nothing. The first
// judgement of the unit then starts from it, whatever a later edit left.
func (k Keeper) First(ctx context.Context, delivery, repo string, number int, body string) error {
	c, probs := workunit.ParseContract(body)
	if len(probs) > 0 {
		return nil
	}
	if _, ok, err := k.Store.KeptContract(ctx, repo, store.ContractUnit, number); err != nil || ok {
		return err
	}
	k.Delivery = delivery
	err := k.keep(ctx, repo, store.ContractUnit, number, nil, c, nil, "")
	if errors.Is(err, store.ErrContractMoved) {
		return nil // kept meanwhile by a judgement, which counts first
	}
	return err
}

// Increment is the increment definition that counts for milestone number
// of repo, the one reader of a milestone's definition. GitHub's GraphQL
// Milestone names no editor, so a change counts whole only when ownerEdit
// (the caller saw a GitHub-signed milestone.edited from an owner leaving
// this very description), else only when it asks at least as much as the
// kept definition; otherwise the stricter counts and the change is shown
// as tampering. An invalid description never replaces a kept definition;
// with nothing kept it yields the zero definition (its problems show).
func (k Keeper) Increment(ctx context.Context, repo string, number int, description string, ownerEdit bool) (workunit.IncrementSpec, []string, error) {
	live, probs := workunit.ParseIncrement(description)
	row, ok, err := k.Store.KeptContract(ctx, repo, store.ContractMilestone, number)
	if err != nil {
		return workunit.IncrementSpec{}, nil, err
	}
	var kept *workunit.IncrementSpec
	if ok {
		kept = new(workunit.IncrementSpec)
		if err := json.Unmarshal(row.Contract, kept); err != nil {
			return workunit.IncrementSpec{}, nil, fmt.Errorf("kept increment definition of %s milestone %d: %w", repo, number, err)
		}
	} else if len(probs) > 0 {
		return live, nil, nil
	}
	counts, ignored := k.rules().Increment(kept, live, ownerEdit && len(probs) == 0)
	return counts, ignored, k.keep(ctx, repo, store.ContractMilestone, number, rowOrNil(row, ok), counts, ignored, "")
}

func rowOrNil(r store.KeptContract, ok bool) *store.KeptContract {
	if !ok {
		return nil
	}
	return &r
}

// keep stores counts and the tampering seen when either differs from what
// prev holds, with one ledger row saying what changed.
func (k Keeper) keep(ctx context.Context, repo, kind string, number int, prev *store.KeptContract, counts any, ignored []string, by string) error {
	b, err := json.Marshal(counts)
	if err != nil {
		return fmt.Errorf("encode kept contract: %w", err)
	}
	tamper := strings.Join(ignored, "; ")
	if prev != nil && string(prev.Contract) == string(b) && prev.Tamper == tamper && prev.TamperedBy == by {
		return nil
	}
	what := "contract_kept"
	switch {
	case tamper != "":
		what = "contract_tampered"
	case prev != nil:
		what = "contract_changed"
	}
	subject := fmt.Sprintf("%s#%d", repo, number)
	if kind == store.ContractMilestone {
		subject = fmt.Sprintf("%s milestone %d", repo, number)
	}
	row := store.KeptContract{Repo: repo, Kind: kind, Number: number, Contract: b, Tamper: tamper, TamperedBy: by}
	e := store.Entry{Kind: what + ":" + kind, DeliveryID: k.Delivery, Subject: subject,
		Body: map[string]any{"kind": kind, "number": number, "counts": json.RawMessage(b), "ignored": ignored, "edited_by": by}}
	return k.Store.KeepContract(ctx, row, prev, e, time.Now())
}

// Entitled says who may change a unit's contract under cfg: the
// repository's owners (as cfg resolved its teams; a path's owners own that
// path, not the work) and its coordinators. A nil cfg entitles no one.
func Entitled(cfg *config.Config) func(string) bool {
	return func(who string) bool {
		return cfg != nil && (login.In(cfg.Owners, who) || login.In(cfg.Coordinators, who))
	}
}

// Evaluation puts on ev's unit issue the contract that counts (Unit), with
// the owners and coordinators of ev's config entitled to change it, before
// any check reads it; delivery is the webhook delivery it runs for ("" for
// the sweep), named in the ledger.
func (k Keeper) Evaluation(ctx context.Context, delivery, repo string, ev *verdict.Evaluation) error {
	k.Delivery = delivery
	u := ev.Snap.Units[ev.Unit]
	if ev.Unit == 0 || u == nil || u.Unreadable != "" || u.IsPullRequest {
		return nil
	}
	kept, err := k.Unit(ctx, repo, Issue{Number: u.Number, Body: u.Body, Editor: u.Editor}, Entitled(ev.Cfg))
	u.Kept = kept
	return err
}

// Unkept keeps nothing: the contract GitHub shows counts, for a simulation,
// which writes nothing.
type Unkept struct{}

// KeptContract finds none.
func (Unkept) KeptContract(context.Context, string, string, int) (store.KeptContract, bool, error) {
	return store.KeptContract{}, false, nil
}

// KeepContract keeps nothing.
func (Unkept) KeepContract(context.Context, store.KeptContract, *store.KeptContract, store.Entry, time.Time) error {
	return nil
}
