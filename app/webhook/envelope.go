package webhook

import (
	"encoding/json"
	"sync"
)

// Envelope is what every body carries, whatever its event: where it
// happened, what happened and who did it. The edge reads it for its log
// line; the App's routing (app/route) reads it of every queued job.
type Envelope struct {
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
		Type  string `json:"type"`
	} `json:"sender"`
}

// envelopeFields is what envelope reads.
var envelopeFields = sync.OnceValue(func() *fields { return fieldsOf(new(Envelope)) })

// readEnvelope decodes the Envelope from what a pass kept of a body, as
// far as its fields have the Envelope's types (a field of another type
// is left out: the Envelope only names a delivery in the log). An action
// that is not a string of up to 64 lowercase letters, digits and
// underscores (GitHub's actions all are) is left out too, so a log line
// never carries more.
func readEnvelope(kept []byte) Envelope {
	var e Envelope
	_ = json.Unmarshal(kept, &e) // best effort, see above
	if !eventName().MatchString(e.Action) {
		e.Action = ""
	}
	return e
}

// logAttrs are the Envelope's fields for a log line.
func (e Envelope) logAttrs() []any {
	out := []any{"action", e.Action}
	if e.Installation != nil {
		out = append(out, "installation", e.Installation.ID)
	}
	if e.Repository != nil {
		out = append(out, "repo", e.Repository.Owner.Login+"/"+e.Repository.Name)
	}
	if e.Sender != nil {
		out = append(out, "sender", e.Sender.Login)
	}
	return out
}

// readsFor is what the edge reads of a body of event: the Envelope and,
// for an event that starts work, the views its job decodes. It is built
// once per event from the first views Config.Views returns.
func (h *Handler) readsFor(event string, views []any) *fields {
	if views == nil {
		return envelopeFields()
	}
	if f, ok := h.events.reads.Load(event); ok {
		return f.(*fields)
	}
	f := mergeFields(envelopeFields(), fieldsOf(views...))
	h.events.reads.Store(event, f)
	return f
}
