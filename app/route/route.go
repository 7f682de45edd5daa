// Package route is the App's table of event families: for each family the
// webhook events (and the actions of each) that start work, the payload
// view it decodes, and the typed work it derives from a delivery. The table
// is the one list of handled events: the edge acknowledges the rest without
// queueing them, the manifest subscribes to exactly these (Events), and a
// queued job keeps of a body only the fields of its family's view (Views).
// The App's root runs the work (Runner); nothing here reads or writes
// GitHub.
package route

import (
	"encoding/json"
	"fmt"
	"slices"

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
}

// Defaults is the App's table of event families.
func Defaults() Table {
	return Table{
		pullRequestFamily(), conversationFamily(), reviewFamily(), checksFamily(),
		mergeGroupFamily(), releaseFamily(), issuesFamily(), pushFamily(), deployFamily(),
	}
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

// Events is every webhook event the App handles, sorted: the events of
// its family table (Defaults), which the manifest subscribes to.
func Events() []string { return Defaults().Events() }

// decode reads a family's view from raw.
func decode[V any](raw []byte) (V, error) {
	var v V
	err := json.Unmarshal(raw, &v)
	return v, err
}

// sender is the login that sent the event, "" when none.
func sender(e webhook.Envelope) string {
	if e.Sender == nil {
		return ""
	}
	return e.Sender.Login
}

// repoName is the envelope's "owner/name".
func repoName(e webhook.Envelope) string { return e.Repository.Owner.Login + "/" + e.Repository.Name }
