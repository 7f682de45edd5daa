package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	acontract "github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// liveContracts is the negative control of the kept contract: the body's
// contract counts as it stands, whoever changed it (the App before issue
// 40 read it live on every evaluation).
var liveContracts = acontract.Rules{
	Unit: func(_ *workunit.Contract, next workunit.Contract, _ bool) (workunit.Contract, []string) {
		return next, nil
	},
	Increment: func(_ *workunit.IncrementSpec, next workunit.IncrementSpec, _ bool) (workunit.IncrementSpec, []string) {
		return next, nil
	},
}

// waitWorkUnit waits for the head's aepgate/work-unit run to say what
// contains.
func (a *auditWorld) waitWorkUnit(t *testing.T, contains string) *ghfake.CheckRun {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "aepgate/work-unit saying "+contains, func() bool {
		r := appkit.NewestRunOn(a.Repo, a.pr.Head(), checks.NameWorkUnit)
		return r != nil && strings.Contains(r.Summary, contains)
	})
	return appkit.NewestRunOn(a.Repo, a.pr.Head(), checks.NameWorkUnit)
}

// TestContractRiskLoweredByAuthor: bob, the pull request's author with
// write access, edits his unit's contract from risk high to low. The kept
// contract still counts: the audit stays required, and aepgate/work-unit
// and aepgate/audit say bob changed it. With the body read live (the
// negative control) the audit becomes "not required".
func TestContractRiskLoweredByAuthor(t *testing.T) {
	tests := []struct {
		name      string
		rules     acontract.Rules
		wantAudit string
	}{
		{"kept", acontract.Rules{}, "failure"},
		{"read live (negative control)", liveContracts, "success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAuditWorldWith(t, "high", "version: 1\nowners: [olivia]\n", func(o *app.Options) { o.Seams.ContractRules = tt.rules })
			a.waitAudit(t, "failure")
			a.unit.Edit("bob", appkit.Contract("low", "product"))
			if tt.wantAudit == "success" {
				r := a.waitAudit(t, "success")
				if !strings.Contains(r.Title, "No audit required") {
					t.Errorf("read live: %s", r.Title)
				}
				return
			}
			a.waitWorkUnit(t, "changed by `bob`")
			appkit.WaitFor(t, 10*time.Second, "aepgate/audit naming the tampering", func() bool {
				r := a.audit()
				return r != nil && strings.Contains(r.Summary, "changed by `bob`")
			})
			r := a.audit()
			if r.Conclusion != "failure" || !strings.Contains(r.Summary, "Contract tampering") || !strings.Contains(r.Summary, "changed by `bob`") || !strings.Contains(r.Summary, "risk lowered from high to low") {
				t.Errorf("aepgate/audit does not show the tampering:\n%s", r.Summary)
			}
		})
	}
}

// TestContractChangesThatCount: raising the risk counts whoever does it; an
// owner's lowering counts.
func TestContractChangesThatCount(t *testing.T) {
	t.Run("a writer raises", func(t *testing.T) {
		a := newAuditWorld(t, "low")
		a.waitAudit(t, "success")
		a.unit.Edit("bob", appkit.Contract("high", "product"))
		r := a.waitAudit(t, "failure")
		if strings.Contains(r.Summary, "Contract tampering") {
			t.Errorf("a raise shown as tampering:\n%s", r.Summary)
		}
	})
	t.Run("an owner lowers", func(t *testing.T) {
		a := newAuditWorld(t, "high")
		a.waitAudit(t, "failure")
		a.unit.Edit("olivia", appkit.Contract("low", "product"))
		a.waitAudit(t, "success")
	})
}

// TestContractKeptAcrossRestart: a new App on the same database (a
// restarted App, or a second replica), which never saw the contract in
// memory, judges the tampered contract at the risk the first one kept.
func TestContractKeptAcrossRestart(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "aepgate.db")
	var o app.Options
	a := newAuditWorldWith(t, "high", "version: 1\nowners: [olivia]\n", func(x *app.Options) { x.Database = db; o = *x })
	a.waitAudit(t, "failure")
	second, base := appkit.Start(t, o)
	a.App, a.Base = second, base
	a.F.SendWebhooks(base+"/webhook", appkit.Secret, a.GHApp)
	a.unit.Edit("bob", appkit.Contract("low", "product"))
	a.waitWorkUnit(t, "changed by `bob`")
	appkit.WaitFor(t, 10*time.Second, "aepgate/audit naming the tampering", func() bool {
		r := a.audit()
		return r != nil && strings.Contains(r.Summary, "changed by `bob`")
	})
	if r := a.audit(); r.Conclusion != "failure" {
		t.Errorf("after a restart: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
	}
}

// keptRow waits until the App keeps a contract of kind and number.
func keptRow(t *testing.T, a *app.App, kind string, number int) {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, fmt.Sprintf("a kept %s contract %d", kind, number), func() bool {
		_, ok, err := a.Store().KeptContract(context.Background(), "acme/widgets", kind, number)
		return err == nil && ok
	})
}

// TestContractMilestoneLoweredByWriter: mallory, a writer who is not an
// owner, lowers high-risk milestone M1 and its three high-risk stories to
// low before they merge. The kept definitions still count: the increment
// is not certified without the owner's `/aep accept`. Read live (the
// negative control), it is certified without it.
func TestContractMilestoneLoweredByWriter(t *testing.T) {
	tests := []struct {
		name         string
		rules        acontract.Rules
		wantComplete bool
	}{
		{"kept", acontract.Rules{}, false},
		{"read live (negative control)", liveContracts, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newIncrementWorldWith(t, incrementYAML, highRisk, nil, func(o *app.Options) { o.Seams.ContractRules = tt.rules }, "high", "high", "high")
			w.sweep(t)
			keptRow(t, w.App, store.ContractMilestone, w.ms.Number())
			for _, s := range w.stories {
				keptRow(t, w.App, store.ContractUnit, s.Number())
			}
			w.ms.Edit("mallory", "```yaml\nrisk: low\n```\n")
			for _, s := range w.stories {
				s.Edit("mallory", appkit.Contract("low", "product"))
			}
			last := w.certifiedAll(t)
			w.sweep(t)
			if _, done := w.complete(t, last); done != tt.wantComplete {
				t.Fatalf("certified without the owner's acceptance: %v, want %v (%+v)", done, tt.wantComplete, w.increment(t, last))
			}
			if tt.wantComplete {
				return
			}
			if r := w.increment(t, last); r == nil || !strings.Contains(r.Summary, "Contract tampering") || !strings.Contains(r.Summary, "risk lowered from high to low") {
				t.Errorf("aepgate/increment does not show the tampering: %+v", r)
			}
			w.control.Comment("olivia", "/aep accept 1 "+last)
			if _, done := w.complete(t, last); !done {
				t.Fatalf("the owner's acceptance did not complete the increment: %+v", w.increment(t, last))
			}
		})
	}
}

// TestContractClosureLowRiskPath: story #api (high risk, kept) has a merged
// attempt that passed aepgate/merge and aepgate/readback but no
// certificate; mallory, a writer, lowers its risk to low and carl, a
// coordinator, closes it. Judged at the kept risk the closure is without
// evidence and #export stays blocked; read live (the negative control),
// closure's low-risk path counts it done and #export is released.
func TestContractClosureLowRiskPath(t *testing.T) {
	tests := []struct {
		name  string
		rules acontract.Rules
		want  string
		text  string
	}{
		{"kept", acontract.Rules{}, "failure", "closed without evidence by carl"},
		{"read live (negative control)", liveContracts, "success", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.ContractRules = tt.rules })
			w.Repo.Grant("olivia", "admin")
			w.Repo.Grant("carl", "write")
			w.Repo.Grant("mallory", "write")
			w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": closureConfig})
			ms := w.Repo.CreateMilestone("Exports", "```yaml\nrisk: high\n```\n")
			api := w.Repo.OpenIssue("olivia", "Report API", appkit.Contract("high", "contract"), ghfake.InMilestone(ms))
			export := w.Repo.OpenIssue("olivia", "Export reports", appkit.Contract("medium", "product", api.Number()), ghfake.InMilestone(ms))
			w.Repo.Branch("feature", "main")
			w.Repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
			pr := w.Repo.OpenPR("bob", "feature", "main", "Export", "Work-unit: #"+strconv.Itoa(export.Number()))
			cw := &closureWorld{Live: w, api: api, export: export, head: pr.Head()}
			cw.waitUnit(t, "failure", "is still open")
			// A first closure without evidence, then a reopening: #api's
			// contract is kept (from issues.opened) before mallory edits it.
			api.Close("carl")
			cw.waitUnit(t, "failure", "closed without evidence by carl")
			keptRow(t, w.App, store.ContractUnit, api.Number())
			api.Reopen("olivia")
			cw.waitUnit(t, "failure", "is still open")
			at, _ := json.Marshal(closure.Attempt{PR: 900, MergeSHA: strings.Repeat("a", 40), MergePassed: true, ReadbackPassed: true})
			if err := w.App.Store().SaveUnitEvidence(context.Background(), "acme/widgets", api.Number(), 900, at, time.Now()); err != nil {
				t.Fatal(err)
			}
			api.Edit("mallory", appkit.Contract("low", "contract"))
			api.Close("carl")
			cw.waitUnit(t, tt.want, tt.text)
		})
	}
}

// TestContractMilestoneLoweredByOwner: olivia, the owner, lowers high-risk
// milestone M1 (medium stories) to medium; GitHub's signed
// milestone.edited names her, so the lower tier counts and the increment
// is certified without an acceptance. The same edit by mallory, a writer,
// does not count (TestContractMilestoneLoweredByWriter's kept case).
func TestContractMilestoneLoweredByOwner(t *testing.T) {
	w := newIncrementWorldWith(t, incrementYAML, highRisk, nil, nil, "medium", "medium", "medium")
	w.sweep(t)
	keptRow(t, w.App, store.ContractMilestone, w.ms.Number())
	w.ms.Edit("olivia", "```yaml\nrisk: medium\n```\n")
	w.Quiet(t)
	last := w.certifiedAll(t)
	w.sweep(t)
	if _, done := w.complete(t, last); !done {
		t.Fatalf("the owner's lowering did not count: %+v", w.increment(t, last))
	}
}

// TestContractLoweredBeforeFirstJudgement: bob lowers his unit's risk
// before he opens the pull request that names it, so no judgement has read
// the unit yet. The contract was kept from the signed issues.opened
// delivery: the audit stays required and the tampering names bob. Read
// live (the negative control), the audit is "not required".
func TestContractLoweredBeforeFirstJudgement(t *testing.T) {
	tests := []struct {
		name      string
		rules     acontract.Rules
		wantAudit string
	}{
		{"kept", acontract.Rules{}, "failure"},
		{"read live (negative control)", liveContracts, "success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.ContractRules = tt.rules })
			w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\n"})
			w.Repo.Grant("bob", "write")
			ms := w.Repo.CreateMilestone("M", "")
			unit := w.Repo.OpenIssue("olivia", "Export", appkit.Contract("high", "product"), ghfake.InMilestone(ms))
			keptRow(t, w.App, store.ContractUnit, unit.Number())
			unit.Edit("bob", appkit.Contract("low", "product"))
			w.Repo.Branch("export", "main")
			w.Repo.CommitBy("bob", "export", "export", map[string]string{"export/export.go": auditSource})
			pr := w.Repo.OpenPR("bob", "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
			appkit.WaitFor(t, 10*time.Second, "aepgate/audit "+tt.wantAudit, func() bool {
				r := appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameAudit)
				return r != nil && r.Conclusion == tt.wantAudit
			})
			if r := appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameAudit); tt.wantAudit == "failure" && !strings.Contains(r.Summary, "changed by `bob`") {
				t.Errorf("aepgate/audit does not name bob:\n%s", r.Summary)
			}
		})
	}
}
