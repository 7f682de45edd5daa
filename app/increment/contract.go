package increment

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/internal/gh"
	rules "github.com/aepgate/aepgate/protocol/increment"
)

// definition sets f's demonstration criterion and declared tier from the
// milestone's definition that counts (app/contract: kept as first judged;
// GitHub names no milestone editor, so a change that asks less never
// counts). What of the description did not count is shown as tampering.
func (j *Judge) definition(ctx context.Context, in Input, m *gh.Milestone, f *rules.Facts) error {
	k := j.Contracts
	k.Delivery = in.Delivery
	spec, ignored, err := k.Increment(ctx, f.Repo, m.Number, m.Description)
	if err != nil {
		return err
	}
	if len(ignored) > 0 {
		f.Tampering = append(f.Tampering, fmt.Sprintf("milestone %d's description was changed by someone GitHub does not name, so the kept definition counts (%s)", m.Number, strings.Join(ignored, "; ")))
	}
	f.Criterion, f.Declared = spec.Demonstration, string(spec.Risk)
	return nil
}

// storyRisk is the story's risk from the contract that counts
// (app/contract). The issues are read through REST, which names no
// editor, so a change that asks less never counts here; "" when its
// contract is invalid and none is kept (the tier then counts it high).
func (j *Judge) storyRisk(ctx context.Context, in Input, is gh.MilestoneIssue, f *rules.Facts) (string, error) {
	k := j.Contracts
	k.Delivery = in.Delivery
	kept, err := k.Unit(ctx, in.Owner+"/"+in.Repo, contract.Issue{Number: is.Number, Body: is.Body}, func(string) bool { return false })
	if err != nil || kept == nil {
		return "", err
	}
	if t := kept.Tamper(); t != "" {
		f.Tampering = append(f.Tampering, fmt.Sprintf("story #%d: %s", is.Number, t))
	}
	return string(kept.Contract.Risk), nil
}
