package deploy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// lineage reads what the commits since environment's last approved
// deployment are judged on (rules.Descends): the last commit the App
// approved there (the store), the App's certified merge commits (the
// evidence it kept when it wrote each certificate) and, when sha is a new
// commit, GitHub's comparison of the two (one read).
func (j *Judge) lineage(ctx context.Context, in Input, environment, sha string) (*deployrules.Lineage, error) {
	repo := in.Owner + "/" + in.Repo
	last, ok, err := j.Store.LastApprovedDeploy(ctx, repo, environment)
	if err != nil || !ok {
		return &deployrules.Lineage{}, err
	}
	l := &deployrules.Lineage{Base: last.SHA, Since: deployrules.Comparison{Status: "identical"}}
	if last.SHA == sha {
		return l, nil
	}
	if l.Certified, err = j.certifiedMerges(ctx, repo); err != nil {
		return nil, err
	}
	if l.Since, err = j.Src.Compare(ctx, in.Owner, in.Repo, last.SHA, sha); err != nil {
		return nil, err
	}
	return l, nil
}

// certifiedMerges are the merge commits of repo's attempts the App wrote
// a certificate for.
func (j *Judge) certifiedMerges(ctx context.Context, repo string) (map[string]bool, error) {
	rows, err := j.Store.UnitEvidence(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for unit, attempts := range rows {
		for _, raw := range attempts {
			var a closurerules.Attempt
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, fmt.Errorf("evidence of %s#%d: %w", repo, unit, err)
			}
			if a.MergeSHA != "" && a.CertificateSHA256 != "" {
				out[a.MergeSHA] = true
			}
		}
	}
	return out, nil
}
