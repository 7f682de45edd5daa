package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/canonical"
)

// Event types.
const (
	EventCreate  = "create"
	EventHold    = "hold"
	EventResolve = "resolve"
	EventResume  = "resume"
)

// Event is one thing that happened to the project's gates: a gate created,
// a HOLD put on, a gate resolved, a HOLD resumed. Actor is who did it (a
// GitHub login); Authority is what the caller has verified about that actor
// ("direct-owner" only when the actor is a listed owner whose write access
// GitHub confirmed). Time orders events; equal times keep input order.
type Event struct {
	Type      string    `json:"type"`
	Time      time.Time `json:"time"`
	Actor     string    `json:"actor"`
	Authority string    `json:"authority"`
	// Evidence names where the event came from (e.g. a comment URL); a
	// resolve or resume without it is refused.
	Evidence string `json:"evidence,omitempty"`

	GateID            string  `json:"gateId,omitempty"`
	WorkUnit          *string `json:"workUnit,omitempty"`
	Question          string  `json:"question,omitempty"`
	Choices           Choices `json:"choices,omitempty"`
	ExternalEffect    string  `json:"externalEffect,omitempty"`
	OwnerOnlyCategory string  `json:"ownerOnlyCategory,omitempty"`
	BlockingScope     string  `json:"blockingScope,omitempty"`
	SafeDefault       string  `json:"safeDefault,omitempty"`
	DecisionKey       *string `json:"decisionKey,omitempty"`

	Choice string `json:"choice,omitempty"`
	Reason string `json:"reason,omitempty"`

	// Malformed, when set, says why the event could not be read; such an
	// event blocks every action (fail closed).
	Malformed string `json:"-"`
}

// Choices is a gate's choice list. In JSON it is either an array of strings
// or one string split on "," or "|" (as craft's --choices flag).
type Choices []string

// UnmarshalJSON accepts an array of strings or a "a|b,c" string.
func (c *Choices) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = SplitChoices(s)
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return fmt.Errorf("choices: a string or an array of strings was expected")
	}
	*c = NormaliseChoices(l)
	return nil
}

// Log is a project's gate events: the input of Replay and Evaluate.
type Log struct {
	Project string  `json:"project"`
	Events  []Event `json:"events"`
	// Approvals maps an owner-only category to how many distinct owners
	// must answer a gate of it with one choice before it resolves
	// (gates.<category>.approvals); a category absent or below 2 needs
	// one. Not part of the events file: the caller's policy.
	Approvals map[string]int `json:"-"`
	// Distinct are the rules joining answers into one person when they
	// are counted (protocol/approval; the zero value applies them all).
	Distinct approval.Rules `json:"-"`
}

// envelope is the events file before its events are read one by one.
type envelope struct {
	SchemaVersion int               `json:"schemaVersion"`
	Project       string            `json:"project"`
	Events        []json.RawMessage `json:"events"`
}

// ParseLog reads an events file: {"schemaVersion":1, "project":…,
// "events":[…]}. The file must be strict JSON (duplicate keys refused) in
// that shape, else an error. An event that does not read (unknown field,
// wrong type, missing time) is kept with Malformed set, so it blocks.
func ParseLog(raw []byte) (Log, error) {
	if _, err := canonical.ParseObject(raw, canonical.Options{RejectDuplicateKeys: true}); err != nil {
		return Log{}, fmt.Errorf("gate events: %w", err)
	}
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return Log{}, fmt.Errorf("gate events: %w", err)
	}
	if env.SchemaVersion != 1 {
		return Log{}, fmt.Errorf("gate events: schemaVersion must be 1, got %d", env.SchemaVersion)
	}
	project, err := CleanProject(env.Project)
	if err != nil {
		return Log{}, fmt.Errorf("gate events: project: %w", err)
	}
	if env.Events == nil {
		return Log{}, fmt.Errorf("gate events: an events array is required")
	}
	log := Log{Project: project, Events: make([]Event, 0, len(env.Events))}
	for i, r := range env.Events {
		log.Events = append(log.Events, parseEvent(i, r))
	}
	return log, nil
}

func parseEvent(i int, raw json.RawMessage) Event {
	var e Event
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Event{Malformed: fmt.Sprintf("event %d: %v", i, err)}
	}
	if e.Time.IsZero() {
		return Event{Type: e.Type, Malformed: fmt.Sprintf("event %d: time is required (RFC 3339)", i)}
	}
	return e
}
