package route

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/google/go-cmp/cmp"
)

// ping and pong are toy work; late is the coalesced form of a ping.
type ping struct{ N int }
type pong struct{ N int }
type late struct{ N int }

func (ping) WorkKind() string { return "ping" }
func (pong) WorkKind() string { return "pong" }
func (late) WorkKind() string { return "late" }

// toys is a table of two toy families: star (created only) derives a ping
// and a pong, and coalesces pings; fork (every action) derives a pong.
func toys() Table {
	return Table{
		{Name: "star", Events: map[string][]string{"star": {"created"}}, View: func() any { return new(struct{}) },
			Derive: func(string, webhook.Envelope, []byte, int64) ([]Work, error) { return []Work{ping{1}, pong{2}}, nil },
			Coalesce: func(x Work) (Work, bool) {
				p, ok := x.(ping)
				return late(p), ok
			}},
		{Name: "fork", Events: map[string][]string{"fork": nil}, View: func() any { return new(struct{}) },
			Derive: func(string, webhook.Envelope, []byte, int64) ([]Work, error) { return []Work{pong{3}}, nil }},
	}
}

const installed = `{"installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"}},"action":`

func TestTableRoutes(t *testing.T) {
	tests := []struct {
		name, event, body string
		want              []Work
	}{
		{"an action of the family", "star", installed + `"created"}`, []Work{ping{1}, pong{2}}},
		{"another action", "star", installed + `"deleted"}`, nil},
		{"every action", "fork", installed + `"any"}`, []Work{pong{3}}},
		{"an event of no family", "watch", installed + `"started"}`, nil},
		{"no installation", "star", `{"action":"created"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, err := toys().Route(tt.event, []byte(tt.body), 1)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("work (-want +got):\n%s", diff)
			}
		})
	}
	w, _, _ := toys().Route("star", []byte(installed+`"created"}`), 1)
	if want := (Where{Installation: 9, Owner: "acme", Repo: "app", Event: "star"}); w != want {
		t.Errorf("where = %+v, want %+v", w, want)
	}
	if _, _, err := toys().Route("star", []byte(`{`), 1); err == nil {
		t.Error("a payload that is no JSON was routed")
	}
	if got, want := toys().Events(), []string{"fork", "star"}; !cmp.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	if !toys().Handles("fork") || toys().Handles("watch") {
		t.Error("Handles disagrees with the families' events")
	}
}

// TestTableCoalesces: a family's Coalesce replaces, in place, the work it
// coalesces, when allowed; a family without one keeps its work.
func TestTableCoalesces(t *testing.T) {
	ws := []Work{pong{0}, ping{1}, pong{2}}
	all := func(Work) bool { return true }
	if diff := cmp.Diff([]Work{pong{0}, late{1}, pong{2}}, toys().Coalesce("star", ws, all)); diff != "" {
		t.Errorf("star (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ws, toys().Coalesce("fork", ws, all)); diff != "" {
		t.Errorf("fork, which coalesces nothing (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ws, toys().Coalesce("star", ws, func(Work) bool { return false })); diff != "" {
		t.Errorf("star, not allowed (-want +got):\n%s", diff)
	}
}

// TestHandlersRun: each piece of work goes to the handler of its type, in
// order; the first error stops the rest.
func TestHandlersRun(t *testing.T) {
	var got []string
	var h Handlers
	Handle(&h, func(_ context.Context, w Where, j ping) error {
		got = append(got, w.Repo+" ping")
		if j.N < 0 {
			return errors.New("negative")
		}
		return nil
	})
	Handle(&h, func(_ context.Context, w Where, j pong) error { got = append(got, w.Repo+" pong"); return nil })
	w := Where{Owner: "acme", Repo: "app"}
	if err := h.Run(context.Background(), w, []Work{pong{1}, ping{2}, pong{3}}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"app pong", "app ping", "app pong"}; !cmp.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
	got = nil
	if err := h.Run(context.Background(), w, []Work{ping{-1}, pong{1}}); err == nil || len(got) != 1 {
		t.Errorf("error %v after %v, want the first error to stop the rest", err, got)
	}
}

// TestHandlersRefuseUnregistered: work of a kind nobody registered is an
// error that names it, and nothing of the list runs after it; registered,
// the same work runs (the negative control).
func TestHandlersRefuseUnregistered(t *testing.T) {
	for _, registered := range []bool{false, true} {
		var ran []Work
		var h Handlers
		Handle(&h, func(_ context.Context, _ Where, j ping) error { ran = append(ran, j); return nil })
		if registered {
			Handle(&h, func(_ context.Context, _ Where, j late) error { ran = append(ran, j); return nil })
		}
		err := h.Run(context.Background(), Where{Owner: "acme", Repo: "app"}, []Work{late{1}, ping{2}})
		switch {
		case registered && (err != nil || len(ran) != 2):
			t.Errorf("registered: error %v, ran %v", err, ran)
		case !registered && (err == nil || !strings.Contains(err.Error(), "late") || !strings.Contains(err.Error(), "route.Handle") || len(ran) != 0):
			t.Errorf("unregistered: error %v, ran %v; want a refusal naming the kind, before anything ran", err, ran)
		}
	}
	var h Handlers
	if err := h.Run(context.Background(), Where{}, []Work{nil}); err == nil {
		t.Error("nil work ran")
	}
}

func TestMayRequest(t *testing.T) {
	for body, want := range map[string]bool{
		"Build 12 passed.\n\n> quoted text": false, "/aep hold": true, "thanks\n  /gate resume": true,
		"> /aep hold": true, "```aep-gate\n```": true, "~~~\n~~~": true, "a / b": false,
	} {
		if got := MayRequest(body); got != want {
			t.Errorf("MayRequest(%q) = %v, want %v", body, got, want)
		}
	}
}
