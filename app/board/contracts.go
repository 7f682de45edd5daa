package board

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// stored puts on in what the App's store holds for the board: the
// closures, the increments' judged stages, the observed readbacks and the
// kept contracts.
func (b *Boards) stored(ctx context.Context, repo string, read *gh.BoardRead, in *boardview.Input) error {
	var err error
	if in.Closures, err = b.closures(ctx, repo, read.Milestones); err != nil {
		return err
	}
	if in.Increments, err = b.increments(ctx, repo); err != nil {
		return err
	}
	if in.ReadBack, err = b.readBack(ctx, repo, in.MergeCoordinators); err != nil {
		return err
	}
	return b.contracts(ctx, repo, in)
}

// contracts puts on each story of in the contract the App keeps for it,
// with the last change that did not count, so the board shows the risk
// that counts and the tampering. The board only reads them: the judges
// keep them (app/contract).
func (b *Boards) contracts(ctx context.Context, repo string, in *boardview.Input) error {
	kept, err := b.DB.KeptContracts(ctx, repo, store.ContractUnit)
	if err != nil || len(kept) == 0 {
		return err
	}
	for i := range in.Milestones {
		for j := range in.Milestones[i].Issues {
			is := &in.Milestones[i].Issues[j]
			row, ok := kept[is.Number]
			if !ok {
				continue
			}
			k := &workunit.Kept{EditedBy: row.TamperedBy}
			if err := json.Unmarshal(row.Contract, &k.Contract); err != nil {
				return fmt.Errorf("kept contract of %s#%d: %w", repo, is.Number, err)
			}
			if row.Tamper != "" {
				k.Ignored = []string{row.Tamper}
			}
			is.Kept = k
		}
	}
	return nil
}
