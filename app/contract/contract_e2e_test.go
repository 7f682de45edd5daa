package contract_test

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
	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// liveContracts is the negative control of the kept contract: the body's
// contract counts as it stands, whoever changed it (the App before issue
// 40 read it live on every evaluation).
var liveContracts = contract.Rules{
	Unit: func(_ *workunit.Contract, next workunit.Contract, _ bool) (workunit.Contract, []string) {
		return next, nil
	},
	Increment: func(_ *workunit.IncrementSpec, next workunit.IncrementSpec, _ bool) (workunit.IncrementSpec, []string) {
		return next, nil
	},
}

// TestContractRiskLoweredByAuthor: bob, the pull request's author with
// write access, edits his unit's contract from risk high to low. The kept
// contract still counts: the audit stays required, and aepgate/work-unit
// and aepgate/audit say bob changed it. With the body read live (the
// negative control) the audit becomes "not required".
func TestContractRiskLoweredByAuthor(t *testing.T) {
	tests := []struct {
		name      string
		rules     contract.Rules
		wantAudit string
	}{
		{"kept", contract.Rules{}, "failure"},
		{"read live (negative control)", liveContracts, "success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := appkit.NewAuditWorldWith(t, "high", "version: 1\nowners: [olivia]\n", func(o *app.Options) { o.Seams.ContractRules = tt.rules })
			a.WaitAudit(t, "failure")
			a.Unit.Edit("bob", appkit.Contract("low", "product"))
			if tt.wantAudit == "success" {
				r := a.WaitAudit(t, "success")
				if !strings.Contains(r.Title, "No audit required") {
					t.Errorf("read live: %s", r.Title)
				}
				return
			}
			a.WaitWorkUnit(t, "changed by `bob`")
			appkit.WaitFor(t, 10*time.Second, "aepgate/audit naming the tampering", func() bool {
				r := a.Audit()
				return r != nil && strings.Contains(r.Summary, "changed by `bob`")
			})
			r := a.Audit()
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
		a := appkit.NewAuditWorld(t, "low")
		a.WaitAudit(t, "success")
		a.Unit.Edit("bob", appkit.Contract("high", "product"))
		r := a.WaitAudit(t, "failure")
		if strings.Contains(r.Summary, "Contract tampering") {
			t.Errorf("a raise shown as tampering:\n%s", r.Summary)
		}
	})
	t.Run("an owner lowers", func(t *testing.T) {
		a := appkit.NewAuditWorld(t, "high")
		a.WaitAudit(t, "failure")
		a.Unit.Edit("olivia", appkit.Contract("low", "product"))
		a.WaitAudit(t, "success")
	})
}

// TestContractKeptAcrossRestart: a new App on the same database (a
// restarted App, or a second replica), which never saw the contract in
// memory, judges the tampered contract at the risk the first one kept.
func TestContractKeptAcrossRestart(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "aepgate.db")
	var o app.Options
	a := appkit.NewAuditWorldWith(t, "high", "version: 1\nowners: [olivia]\n", func(x *app.Options) { x.Database = db; o = *x })
	a.WaitAudit(t, "failure")
	second, base := appkit.Start(t, o)
	a.App, a.Base = second, base
	a.F.SendWebhooks(base+"/webhook", appkit.Secret, a.GHApp)
	a.Unit.Edit("bob", appkit.Contract("low", "product"))
	a.WaitWorkUnit(t, "changed by `bob`")
	appkit.WaitFor(t, 10*time.Second, "aepgate/audit naming the tampering", func() bool {
		r := a.Audit()
		return r != nil && strings.Contains(r.Summary, "changed by `bob`")
	})
	if r := a.Audit(); r.Conclusion != "failure" {
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
		rules        contract.Rules
		wantComplete bool
	}{
		{"kept", contract.Rules{}, false},
		{"read live (negative control)", liveContracts, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewIncrementWorldWith(t, appkit.IncrementYAML, appkit.HighRisk, nil, func(o *app.Options) { o.Seams.ContractRules = tt.rules }, "high", "high", "high")
			w.Sweep(t)
			keptRow(t, w.App, store.ContractMilestone, w.MS.Number())
			for _, s := range w.Stories {
				keptRow(t, w.App, store.ContractUnit, s.Number())
			}
			w.MS.Edit("mallory", "```yaml\nrisk: low\n```\n")
			for _, s := range w.Stories {
				s.Edit("mallory", appkit.Contract("low", "product"))
			}
			last := w.CertifiedAll(t)
			w.Sweep(t)
			if _, done := w.Complete(t, last); done != tt.wantComplete {
				t.Fatalf("certified without the owner's acceptance: %v, want %v (%+v)", done, tt.wantComplete, w.Increment(t, last))
			}
			if tt.wantComplete {
				return
			}
			if r := w.Increment(t, last); r == nil || !strings.Contains(r.Summary, "Contract tampering") || !strings.Contains(r.Summary, "risk lowered from high to low") {
				t.Errorf("aepgate/increment does not show the tampering: %+v", r)
			}
			w.Control.Comment("olivia", "/aep accept 1 "+last)
			if _, done := w.Complete(t, last); !done {
				t.Fatalf("the owner's acceptance did not complete the increment: %+v", w.Increment(t, last))
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
		rules contract.Rules
		want  string
		text  string
	}{
		{"kept", contract.Rules{}, "failure", "closed without evidence by carl"},
		{"read live (negative control)", liveContracts, "success", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.ContractRules = tt.rules })
			w.Repo.Grant("olivia", "admin")
			w.Repo.Grant("carl", "write")
			w.Repo.Grant("mallory", "write")
			w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": appkit.ClosureConfig})
			ms := w.Repo.CreateMilestone("Exports", "```yaml\nrisk: high\n```\n")
			api := w.Repo.OpenIssue("olivia", "Report API", appkit.Contract("high", "contract"), ghfake.InMilestone(ms))
			export := w.Repo.OpenIssue("olivia", "Export reports", appkit.Contract("medium", "product", api.Number()), ghfake.InMilestone(ms))
			w.Repo.Branch("feature", "main")
			w.Repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
			pr := w.Repo.OpenPR("bob", "feature", "main", "Export", "Work-unit: #"+strconv.Itoa(export.Number()))
			cw := &appkit.ClosureWorld{Live: w, API: api, Export: export, Head: pr.Head()}
			cw.WaitUnit(t, "failure", "is still open")
			// A first closure without evidence, then a reopening: #api's
			// contract is kept (from issues.opened) before mallory edits it.
			api.Close("carl")
			cw.WaitUnit(t, "failure", "closed without evidence by carl")
			keptRow(t, w.App, store.ContractUnit, api.Number())
			api.Reopen("olivia")
			cw.WaitUnit(t, "failure", "is still open")
			at, _ := json.Marshal(closurerules.Attempt{PR: 900, MergeSHA: strings.Repeat("a", 40), MergePassed: true, ReadbackPassed: true})
			if err := w.App.Store().SaveUnitEvidence(context.Background(), "acme/widgets", api.Number(), 900, at, time.Now()); err != nil {
				t.Fatal(err)
			}
			api.Edit("mallory", appkit.Contract("low", "contract"))
			api.Close("carl")
			cw.WaitUnit(t, tt.want, tt.text)
		})
	}
}

// TestContractMilestoneLoweredByOwner: olivia, the owner, lowers high-risk
// milestone M1 (medium stories) to medium; GitHub's signed
// milestone.edited names her, so the lower tier counts and the increment
// is certified without an acceptance. The same edit by mallory, a writer,
// does not count (TestContractMilestoneLoweredByWriter's kept case).
func TestContractMilestoneLoweredByOwner(t *testing.T) {
	w := appkit.NewIncrementWorldWith(t, appkit.IncrementYAML, appkit.HighRisk, nil, nil, "medium", "medium", "medium")
	w.Sweep(t)
	keptRow(t, w.App, store.ContractMilestone, w.MS.Number())
	w.MS.Edit("olivia", "```yaml\nrisk: medium\n```\n")
	w.Quiet(t)
	last := w.CertifiedAll(t)
	w.Sweep(t)
	if _, done := w.Complete(t, last); !done {
		t.Fatalf("the owner's lowering did not count: %+v", w.Increment(t, last))
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
		rules     contract.Rules
		wantAudit string
	}{
		{"kept", contract.Rules{}, "failure"},
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
			w.Repo.CommitBy("bob", "export", "export", map[string]string{"export/export.go": appkit.AuditSource})
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
