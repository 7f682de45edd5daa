package deployrules

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

var (
	t0  = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	sha = strings.Repeat("c", 40)
	req = Request{Repo: "acme/app", Environment: "production", SHA: sha, RunID: 77, Requested: t0}
)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

// said is a created, unedited comment on control issue #1.
func said(id int64, who string, min int, body string) gatelog.Item {
	return gatelog.Item{ID: id, URL: fmt.Sprintf("https://github.com/acme/app/issues/1#issuecomment-%d", id),
		Source: gatelog.Source{Kind: gatelog.ControlIssue, Number: 1}, Author: who, AuthorType: "User",
		Created: at(min), Updated: at(min), Body: body, Event: gatelog.EventCommentCreated}
}

// cfg is a config whose production requires certified with gate as set;
// alice owns, carol coordinates.
func cfg(require string, gate bool) *config.Config {
	return &config.Config{Owners: []string{"alice"}, Coordinators: []string{"carol"},
		Deploy: config.Deploy{Environments: map[string]config.Environment{"production": {Require: require, OwnerGate: gate}}}}
}

// facts replays items for c and returns the facts of req.
func facts(c *config.Config, certified bool, items ...gatelog.Item) Facts {
	in := gatelog.Input{Project: "acme-app", ControlIssue: 1, Items: items, AppLogin: "aepgate[bot]",
		Policy:      gatelog.Policy{Owners: c.Owners, Coordinators: c.Coordinators},
		Permissions: gatelog.Permissions{"alice": "admin", "carol": "write", "mallory": "write"}}
	res := Replay(in, req, c.Deploy.Environments[req.Environment].OwnerGate, "aepgate[bot]")
	return Facts{Config: c, Certified: certified, Certificate: "no aepgate/certificate by this App on it", Gates: res.State, Now: at(60)}
}

func without(name string) []Rule {
	var out []Rule
	for _, r := range DefaultRules() {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}

// TestDecide: each attack is refused by its rule, and with that one rule
// removed (the negative control) the same attack is approved.
func TestDecide(t *testing.T) {
	resolve := "/aep resolve " + GateID("production", 77)
	yes := true
	tests := []struct {
		name    string
		req     Request
		facts   Facts
		want    string // Approved, Rejected or "wait"
		rule    string // the rule that stops it, for attacks
		control string // what the attack gets without that rule
	}{
		{"certified, no gate", req, facts(cfg("certified", false), true), Approved, "", ""},
		{"an uncertified commit", req, facts(cfg("certified", false), false), Rejected, "requirement", Approved},
		{"an unlisted environment", Request{Repo: req.Repo, Environment: "staging", SHA: sha, RunID: 77, Requested: t0}, facts(cfg("none", false), true), Rejected, "environment", Approved},
		{"no usable config", req, Facts{ConfigProblem: "version: required", Now: at(1)}, Rejected, "config", ""},
		{"increment unknown", req, func() Facts { f := facts(cfg("increment", false), true); return f }(), Rejected, "requirement", Approved},
		{"increment complete", req, func() Facts { f := facts(cfg("increment", false), false); f.Increment = &yes; return f }(), Approved, "", ""},
		{"a HOLD", req, facts(cfg("none", false), true, said(1, "alice", 5, "/aep hold payments are down")), Rejected, "hold", Approved},
		{"the gate open", req, facts(cfg("certified", true), true), "wait", "owner-gate", Approved},
		{"the owner approves", req, facts(cfg("certified", true), true, said(1, "alice", 5, resolve+" approve")), Approved, "", ""},
		{"the owner rejects", req, facts(cfg("certified", true), true, said(1, "alice", 5, resolve+" reject")), Rejected, "owner-gate", Approved},
		{"a coordinator approves", req, facts(cfg("certified", true), true, said(1, "carol", 5, resolve+" approve")), "wait", "owner-gate", Approved},
		{"an approval before the request", req, facts(cfg("certified", true), true, said(1, "alice", -5, resolve+" approve")), "wait", "owner-gate", Approved},
		{"a HOLD after the approval", req, facts(cfg("certified", true), true, said(1, "alice", 5, resolve+" approve"), said(2, "alice", 6, "/aep hold stop")), Rejected, "hold", Approved},
		{"expired", req, func() Facts { f := facts(cfg("none", false), true); f.Now = t0.Add(MaxWait + time.Minute); return f }(), Rejected, "expired", Approved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DecideWith(tt.req, tt.facts, DefaultRules())
			if diff := cmp.Diff(tt.want, state(got)); diff != "" {
				t.Errorf("DecideWith (-want +got):\n%s\nreason: %s", diff, got.Reason)
			}
			if tt.rule != "" && got.Rule != tt.rule {
				t.Errorf("decided by %q, want %q (%s)", got.Rule, tt.rule, got.Reason)
			}
			if tt.control == "" {
				return
			}
			if c := DecideWith(tt.req, tt.facts, without(tt.rule)); state(c) != tt.control {
				t.Errorf("negative control: without %q the attack got %s (%s), want %s", tt.rule, state(c), c.Reason, tt.control)
			}
		})
	}
}

func state(a Answer) string {
	if a.Waiting() {
		return "wait"
	}
	return a.State
}

// TestGateID: the gate id is under gatelog's reserved prefix, so no
// comment can open it ahead of the App, and it differs per run and
// environment.
func TestGateID(t *testing.T) {
	got := []string{GateID("production", 77), GateID("Prod EU", 77), GateID("production", 78)}
	want := []string{"auto-deploy-production-run77", "auto-deploy-prod-eu-run77", "auto-deploy-production-run78"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GateID (-want +got):\n%s", diff)
	}
	opened := said(1, "carol", -1, "```aep-gate\nid: "+GateID("production", 77)+"\nquestion: x?\nchoices: [approve]\ncategory: human-product-judgment-action\neffect: deploy\nscope: deploy\n```\n")
	f := facts(cfg("none", false), true, opened, said(2, "alice", 0, "/aep resolve "+GateID("production", 77)+" approve"))
	if a := DecideWith(req, f, DefaultRules()); a.State != Approved {
		t.Fatalf("no gate asked for: %+v", a)
	}
	f = facts(cfg("none", true), true, opened, said(2, "alice", -1, "/aep resolve "+GateID("production", 77)+" approve"))
	if a := DecideWith(req, f, DefaultRules()); !a.Waiting() {
		t.Errorf("a hand-made gate under the App's id, answered before the request: %+v; want waiting", a)
	}
}
