// Package route is the mechanism of the App's event families: the table
// type (for each family the webhook events, and the actions of each, that
// start work, the payload view it decodes, the typed work it derives from a
// delivery and the work it coalesces), where work runs (Where), the typed
// work itself (Work) and the registry of who does each kind (Handlers). The
// families and their work belong to the features that own the events; the
// App's root lists them. The table is the one list of handled events: the
// edge acknowledges the rest without queueing them, the manifest subscribes
// to exactly these (Events), and a queued job keeps of a body only the
// fields of its family's view (Views). Nothing here reads or writes GitHub.
package route

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/webhook"
)

// Family is one family of webhook events the App handles.
type Family struct {
	Name string
	// Events maps each event to the actions that start work; nil actions:
	// every action.
	Events map[string][]string
	// View returns a new value of the family's payload view.
	View func() any
	// Derive decodes the view from raw and returns what the delivery asks
	// for; env is the payload's envelope, decoded already, and appID the
	// App's own ID (its own check runs and comments start no work).
	Derive func(event string, env webhook.Envelope, raw []byte, appID int64) ([]Work, error)
	// Coalesce, when set, returns the coalesced form of a piece of work
	// the family derived (a request to do it later, together with the
	// other requests like it) and whether it has one; nil: the family's
	// work is done at once.
	Coalesce func(x Work) (Work, bool)
}

// Table is a table of families, looked up by event.
type Table []Family

// Of returns the family handling event, and whether one does.
func (t Table) Of(event string) (Family, bool) {
	for _, f := range t {
		if _, ok := f.Events[event]; ok {
			return f, true
		}
	}
	return Family{}, false
}

// Handles reports whether event starts work.
func (t Table) Handles(event string) bool {
	_, ok := t.Of(event)
	return ok
}

// Events is every event the table handles, sorted.
func (t Table) Events() []string {
	var out []string
	for _, f := range t {
		for e := range f.Events {
			out = append(out, e)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Views are the payload views a job of event decodes: the envelope and its
// family's view.
func (t Table) Views(event string) []any {
	out := []any{new(webhook.Envelope)}
	if f, ok := t.Of(event); ok {
		out = append(out, f.View())
	}
	return out
}

// Route decides what a delivery asks for: where it happened and its typed
// work. A payload it cannot use returns an error (the job fails without
// retry); an event, action or payload with nothing to do returns no work.
func (t Table) Route(event string, raw []byte, appID int64) (Where, []Work, error) {
	var env webhook.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return Where{}, nil, fmt.Errorf("decode %s payload: %w", event, err)
	}
	f, ok := t.Of(event)
	if !ok {
		return Where{}, nil, nil
	}
	if err := json.Unmarshal(raw, f.View()); err != nil {
		return Where{}, nil, fmt.Errorf("decode %s payload: %w", event, err)
	}
	if env.Installation == nil || env.Repository == nil {
		return Where{}, nil, nil
	}
	w := Where{Installation: env.Installation.ID, Owner: env.Repository.Owner.Login, Repo: env.Repository.Name, Event: event}
	if acts := f.Events[event]; acts != nil && !slices.Contains(acts, env.Action) {
		return w, nil, nil
	}
	ws, err := f.Derive(event, env, raw, appID)
	if err != nil {
		return Where{}, nil, fmt.Errorf("decode %s payload: %w", event, err)
	}
	return w, ws, nil
}

// Coalesce replaces each piece of ws, derived from a delivery of event,
// that its family coalesces and allow allows by its coalesced form,
// keeping the order.
func (t Table) Coalesce(event string, ws []Work, allow func(Work) bool) []Work {
	f, ok := t.Of(event)
	if !ok || f.Coalesce == nil {
		return ws
	}
	out := make([]Work, len(ws))
	for i, x := range ws {
		out[i] = x
		if c, ok := f.Coalesce(x); ok && allow(x) {
			out[i] = c
		}
	}
	return out
}

// Decode reads a family's view from raw.
func Decode[V any](raw []byte) (V, error) {
	var v V
	err := json.Unmarshal(raw, &v)
	return v, err
}

// Sender is the login that sent the event, "" when none.
func Sender(e webhook.Envelope) string {
	if e.Sender == nil {
		return ""
	}
	return e.Sender.Login
}

// RepoName is the envelope's "owner/name".
func RepoName(e webhook.Envelope) string { return e.Repository.Owner.Login + "/" + e.Repository.Name }

// MayRequest reports whether a comment body may hold a command or a gate
// block, under any command prefix a config allows (a slash and a word):
// a line whose first non-blank character is a slash, or a code fence.
func MayRequest(body string) bool {
	for line := range strings.Lines(body) {
		l := strings.TrimLeft(line, " \t>")
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "~~~") || strings.HasPrefix(l, "```") {
			return true
		}
	}
	return false
}
