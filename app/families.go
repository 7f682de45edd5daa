package app

import (
	"encoding/json"
	"fmt"
	"slices"
)

// family is one family of webhook events the App handles: the events (and
// the actions of each that start work), the payload view it decodes, and
// the typed work it derives. The table of families is the one list of
// handled events: the edge acknowledges the rest without queueing them,
// the manifest subscribes to exactly these (Events), and a queued job keeps
// of a body only the fields of its family's view (the edge keeps what the
// views read, webhook.Config.Views).
type family struct {
	name string
	// events maps each event to the actions that start work; nil actions:
	// every action.
	events map[string][]string
	// view returns a new value of the family's payload view.
	view func() any
	// work decodes the view from raw and returns what the delivery asks
	// for; env is the payload's envelope, decoded already.
	work func(event string, env envelope, raw []byte, appID int64) ([]work, error)
}

// defaultFamilies is the App's table of event families.
func defaultFamilies() []family {
	return []family{
		pullRequestFamily(), conversationFamily(), reviewFamily(), checksFamily(),
		mergeGroupFamily(), releaseFamily(), issuesFamily(), pushFamily(), deployFamily(),
	}
}

// envelope is what every payload carries: where it happened, what
// happened and who did it.
type envelope struct {
	Action       string `json:"action"`
	Installation *struct {
		ID int64 `json:"id"`
	} `json:"installation"`
	Repository *struct {
		Name  string `json:"name"`
		Owner struct {
			Login string `json:"login"`
		} `json:"owner"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
}

// sender is the login that sent the event, "" when none.
func (e envelope) sender() string {
	if e.Sender == nil {
		return ""
	}
	return e.Sender.Login
}

// families is a table of families, looked up by event.
type families []family

// of returns the family handling event, and whether one does.
func (fs families) of(event string) (family, bool) {
	for _, f := range fs {
		if _, ok := f.events[event]; ok {
			return f, true
		}
	}
	return family{}, false
}

// handles reports whether event starts work.
func (fs families) handles(event string) bool {
	_, ok := fs.of(event)
	return ok
}

// events is every event the table handles, sorted.
func (fs families) events() []string {
	var out []string
	for _, f := range fs {
		for e := range f.events {
			out = append(out, e)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// views are the payload views a job of event decodes: the envelope and its
// family's view.
func (fs families) views(event string) []any {
	out := []any{new(envelope)}
	if f, ok := fs.of(event); ok {
		out = append(out, f.view())
	}
	return out
}

// route decides what a delivery asks for: where it happened and its
// typed work. A payload it cannot use returns an error (the job fails
// without retry); an event, action or payload with nothing to do returns
// no work.
func (fs families) route(event string, raw []byte, appID int64) (where, []work, error) {
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return where{}, nil, fmt.Errorf("decode %s payload: %w", event, err)
	}
	f, ok := fs.of(event)
	if !ok {
		return where{}, nil, nil
	}
	if err := json.Unmarshal(raw, f.view()); err != nil {
		return where{}, nil, fmt.Errorf("decode %s payload: %w", event, err)
	}
	if env.Installation == nil || env.Repository == nil {
		return where{}, nil, nil
	}
	w := where{installation: env.Installation.ID, owner: env.Repository.Owner.Login, repo: env.Repository.Name, event: event}
	if acts := f.events[event]; acts != nil && !slices.Contains(acts, env.Action) {
		return w, nil, nil
	}
	ws, err := f.work(event, env, raw, appID)
	if err != nil {
		return where{}, nil, fmt.Errorf("decode %s payload: %w", event, err)
	}
	return w, ws, nil
}

// decode reads a family's view from raw.
func decode[V any](raw []byte) (V, error) {
	var v V
	err := json.Unmarshal(raw, &v)
	return v, err
}

// repoName is the envelope's "owner/name".
func (e envelope) repoName() string { return e.Repository.Owner.Login + "/" + e.Repository.Name }

// Events is every webhook event the App handles, sorted: the events of its
// family table (defaultFamilies), which the manifest subscribes to.
func Events() []string { return families(defaultFamilies()).events() }
