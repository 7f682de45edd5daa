package increment

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/login"
)

// definition sets f's demonstration criterion and declared tier from the
// milestone's definition that counts (app/contract: kept as first judged).
// GitHub's GraphQL names no milestone editor, so a change that asks less
// counts only from an owner's edit the App was told of (ownerEdited). What
// of the description did not count is shown as tampering.
func (j *Judge) definition(ctx context.Context, in Input, cfg *config.Config, m *gh.Milestone, f *incrementrules.Facts) error {
	owner, err := j.ownerEdited(ctx, in, cfg, m)
	if err != nil {
		return err
	}
	k := j.Contracts
	k.Delivery = in.Delivery
	spec, ignored, err := k.Increment(ctx, f.Repo, m.Number, m.Description, owner)
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
func (j *Judge) storyRisk(ctx context.Context, in Input, is gh.MilestoneIssue, f *incrementrules.Facts) (string, error) {
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

// ownerEdited reports whether the judgement runs for a GitHub-signed
// milestone.edited of m whose sender is a listed owner, a User with write
// access now, who left the description GitHub shows now (a later edit by
// anyone else is not theirs).
func (j *Judge) ownerEdited(ctx context.Context, in Input, cfg *config.Config, m *gh.Milestone) (bool, error) {
	e := in.edit
	if e == nil || e.milestone != m.Number || e.by.Type != "User" || e.to != m.Description || !login.In(cfg.Owners, e.by.Login) {
		return false, nil
	}
	role, err := j.Src.Role(ctx, in.Owner, in.Repo, e.by.Login)
	if err != nil {
		return false, err
	}
	return slices.Contains([]string{"admin", "maintain", "write"}, role), nil
}
