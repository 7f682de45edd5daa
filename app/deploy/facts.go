package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// facts are what one judgement read, besides the rule's inputs: the
// control issue, to open the gate on.
type facts struct {
	deployrules.Facts
	control *snapshot.ControlIssue
	// configCommit is the default-branch commit the config was read at.
	configCommit string
	// outcomes are what each request on the control issue did in the
	// replay the request is judged under (its deploy gate's answers among
	// them).
	outcomes []gatelog.Outcome
}

// facts reads what d is judged on: the config and the control issue (one
// query), the certificate when the environment requires one (one read)
// and, when the commit carries one, the commits since the environment's
// last approved deployment (one read, none for a first deployment),
// the live permission of each listed owner or coordinator who spoke on the
// control issue, and the kept decisions (the store).
func (j *Judge) facts(ctx context.Context, in Input, d store.Deploy) (facts, error) {
	snap, err := j.Src.Snapshot(ctx, gh.SnapshotRequest{Owner: in.Owner, Repo: in.Repo, Needs: snapshot.Needs{Conversation: true}})
	if err != nil {
		return facts{}, err
	}
	f := facts{control: snap.Control, configCommit: snap.Config.CommitSHA}
	f.Now = j.now()
	f.Config, f.ConfigProblem = parseConfig(snap.Config)
	if f.Config == nil {
		return f, nil
	}
	if f.Config, f.ConfigProblem, err = j.people(ctx, in, snap.Config.CommitSHA, f.Config); f.Config == nil || err != nil {
		return f, err
	}
	env, listed := f.Config.Deploy.Environments[d.Environment]
	if !listed {
		return f, nil
	}
	if env.Require == config.RequireCertified {
		if f.Certified, f.Certificate, err = j.certified(ctx, in, d.SHA); err != nil {
			return f, err
		}
		if f.Certified {
			if f.Lineage, err = j.lineage(ctx, in, d.Environment, d.SHA); err != nil {
				return f, err
			}
		}
	}
	if env.Require == config.RequireIncrement && j.Increments != nil {
		done, err := j.Increments.Complete(ctx, in.Owner, in.Repo, d.SHA)
		if err != nil {
			return f, err
		}
		f.Increment = &done
	}
	gin, err := j.gateInput(ctx, in, f)
	if err != nil {
		return f, err
	}
	res := deployrules.Replay(gin, request(d), env.OwnerGate, j.AppLogin)
	f.Gates, f.outcomes = res.State, res.Outcomes
	return f, nil
}

// parseConfig is the config on the default branch, or why it cannot be
// used. A missing file lists no environment.
func parseConfig(file snapshot.ConfigFile) (*config.Config, string) {
	switch {
	case file.Unreadable != "":
		return nil, "the App may not read it (grant Contents: read): " + file.Unreadable
	case file.Truncated:
		return nil, "GitHub would not return the whole file"
	case !file.Found:
		return config.Default(), ""
	}
	c, err := verdict.Config(file) // resolved over its base, if it extends one
	if err != nil {
		var es config.Errors
		if errors.As(err, &es) && len(es) > 0 {
			first, _, _ := strings.Cut(es[0].Error(), "\n")
			return nil, first
		}
		return nil, err.Error()
	}
	return c, ""
}

// people is cfg with its people resolved by the one resolver
// (app/owners); when a source cannot be read, no config and why: the
// request is then rejected (protocol/deployrules's config rule), never
// approved, and the reason names the file or permission missing.
func (j *Judge) people(ctx context.Context, in Input, commit string, cfg *config.Config) (*config.Config, string, error) {
	got, problem, err := j.People.Resolved(ctx, in.Owner, in.Repo, commit, cfg)
	if err != nil || problem != "" {
		return nil, problem, err
	}
	return got, "", nil
}

// certified reports whether sha carries a valid aepgate/certificate this
// App wrote (GitHub filters by the App's ID) that names sha as its merge
// commit; when not, it says why.
func (j *Judge) certified(ctx context.Context, in Input, sha string) (bool, string, error) {
	runs, err := j.Src.AppCheckRuns(ctx, in.Owner, in.Repo, sha, checks.NameCertificate)
	if err != nil {
		return false, "", err
	}
	var pick *snapshot.ExistingRun
	for i := range runs {
		if pick == nil || runs[i].ID > pick.ID {
			pick = &runs[i]
		}
	}
	if pick == nil {
		return false, "no " + checks.NameCertificate + " check run by this App on it", nil
	}
	run := checks.Run{Name: pick.Name, HeadSHA: sha, ExternalID: pick.ExternalID, Status: checks.Status(pick.Status),
		Conclusion: checks.Conclusion(pick.Conclusion), Title: pick.Title, Summary: pick.Summary}
	raw, rs := checks.VerifyCertificateRun(run)
	if raw != nil {
		v := certificate.Validate(raw)
		rs = append(rs, v.Refusals...)
		if m, _ := v.Certificate["mergeSha"].(string); v.Certificate != nil && m != sha {
			rs = append(rs, refusal.Refusal{Token: "certificate-merge-sha-mismatch", Expected: "mergeSha " + sha, Seen: m})
		}
	}
	if len(rs) > 0 {
		return false, "its " + checks.NameCertificate + " is not valid: " + strings.Join(refusal.Tokens(rs), ", "), nil
	}
	return true, "", nil
}

// gateInput is the gate log's input from the control issue: its comments,
// the kept decisions made there, the policy and the live permissions of
// the listed owners and coordinators who commented.
func (j *Judge) gateInput(ctx context.Context, in Input, f facts) (gatelog.Input, error) {
	project, _ := gate.CleanProject(in.Owner + "/" + in.Repo)
	gin := gatelog.Input{Project: project, AppLogin: j.AppLogin, Permissions: gatelog.Permissions{},
		Policy: gatelog.Policy{Owners: f.Config.Owners, Coordinators: f.Config.Coordinators, Coordinator: f.Config.Coordinator, Prefix: f.Config.CommandPrefix,
			Approvals: f.Config.GateApprovals(), Distinct: j.Distinct}}
	if c := f.control; c != nil {
		src := gatelog.Source{Kind: gatelog.ControlIssue, Number: c.Number}
		gin.ControlIssue = c.Number
		gin.Items = gatelog.CommentItems(c.Thread, src)
		gin.Read = []gatelog.Read{{Source: src, FromID: c.Thread.ReadFrom}}
	}
	kept, err := j.kept(ctx, in)
	if err != nil {
		return gin, err
	}
	gin.Kept = kept
	for _, it := range append(gin.Items, keptItems(kept)...) {
		if _, seen := gin.Permissions[it.Author]; seen || !listed(f.Config, it.Author) {
			continue
		}
		role, err := j.Src.Role(ctx, in.Owner, in.Repo, it.Author)
		if err != nil {
			return gin, err
		}
		gin.Permissions[it.Author] = role
	}
	return gin, nil
}

// kept are the decisions kept from the control issue.
func (j *Judge) kept(ctx context.Context, in Input) ([]gatelog.Kept, error) {
	rows, err := j.Store.KeptDecisions(ctx, in.Owner+"/"+in.Repo)
	if err != nil {
		return nil, err
	}
	var out []gatelog.Kept
	for _, r := range rows {
		var it gatelog.Item
		if err := json.Unmarshal(r.Item, &it); err != nil {
			return nil, fmt.Errorf("kept decision %d of %s/%s: %w", r.ItemID, in.Owner, in.Repo, err)
		}
		if it.Source.Kind == gatelog.ControlIssue {
			out = append(out, gatelog.Kept{Item: it, BodySHA256: r.BodySHA256, Change: r.Tamper, TamperedBy: r.TamperedBy})
		}
	}
	return out, nil
}

func keptItems(ks []gatelog.Kept) []gatelog.Item {
	out := make([]gatelog.Item, 0, len(ks))
	for _, k := range ks {
		out = append(out, k.Item)
	}
	return out
}

// listed reports whether login is a listed owner or coordinator, compared
// as the gate log compares them (protocol/login: ASCII case only).
func listed(c *config.Config, who string) bool {
	return login.In(c.Owners, who) || login.In(c.Coordinators, who)
}
