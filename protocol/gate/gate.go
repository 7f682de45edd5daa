package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/canonical"
)

// Gate states.
const (
	StateOpen     = "open"
	StateResolved = "resolved"
)

// Gate is an owner gate record with craft-protocol's field names (§3.1).
// WorkUnit and DecisionKey are nil when absent. Times are epoch ms.
type Gate struct {
	SchemaVersion       int      `json:"schemaVersion"`
	Project             string   `json:"project"`
	GateID              string   `json:"gateId"`
	WorkUnit            *string  `json:"workUnit"`
	Question            string   `json:"question"`
	Choices             []string `json:"choices"`
	DecisionKey         *string  `json:"decisionKey"`
	DecisionFingerprint string   `json:"decisionFingerprint"`
	ExternalEffect      string   `json:"externalEffect"`
	OwnerOnlyCategory   string   `json:"ownerOnlyCategory"`
	BlockingScope       string   `json:"blockingScope"`
	SafeDefault         string   `json:"safeDefault"`
	State               string   `json:"state"`
	CreatedAt           int64    `json:"createdAt"`
	ResolvedAt          *int64   `json:"resolvedAt"`
	Choice              *string  `json:"choice"`
	Authority           *string  `json:"authority"`
	Evidence            string   `json:"evidence,omitempty"`
	AuthorityEvidence   *string  `json:"authorityEvidence"`
	CreatedBy           string   `json:"createdBy,omitempty"`
	ResolvedBy          string   `json:"resolvedBy,omitempty"`
}

// IsHold reports whether the gate is a project HOLD (id project-hold or
// project-hold-<ms>).
func (g Gate) IsHold() bool { return isHoldID(g.GateID) }

func isHoldID(id string) bool { return id == HoldID || strings.HasPrefix(id, HoldID+"-") }

// answeredSafe reports whether the owner answered with HOLD or the gate's
// safe default: such an answer keeps the gate blocking (craft ignores the
// chosen value; aepgate does not).
func (g Gate) answeredSafe() bool {
	if g.State != StateResolved || g.Choice == nil {
		return false
	}
	return *g.Choice == holdDefault || *g.Choice == g.SafeDefault
}

var idJunk = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9._-]+`) })

// ErrEmptyID is returned by CleanID when nothing usable is left.
var ErrEmptyID = errors.New("id is empty after cleaning")

// CleanID cleans a gate or project id as craft does: each run of characters
// outside [a-zA-Z0-9._-] becomes "-" and edge dashes are stripped.
func CleanID(s string) (string, error) {
	out := strings.Trim(idJunk().ReplaceAllString(s, "-"), "-")
	if out == "" {
		return "", ErrEmptyID
	}
	return out, nil
}

// CleanProject is CleanID lowercased, as craft cleans project names.
func CleanProject(s string) (string, error) {
	id, err := CleanID(s)
	return strings.ToLower(id), err
}

// SplitChoices normalises a choices string: split on "," or "|", trimmed,
// empties and repeats dropped (first occurrence kept).
func SplitChoices(s string) []string {
	return NormaliseChoices(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '|' }))
}

// NormaliseChoices trims each choice and drops empties and repeats, keeping
// the first occurrence.
func NormaliseChoices(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, c := range in {
		c = strings.TrimSpace(c)
		if c == "" || seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c)
	}
	return out
}

// identity is the canonical decision identity hashed into the fingerprint.
type identity struct {
	Project           string   `json:"project"`
	WorkUnit          *string  `json:"workUnit"`
	Question          string   `json:"question"`
	Choices           []string `json:"choices"`
	ExternalEffect    string   `json:"externalEffect"`
	OwnerOnlyCategory string   `json:"ownerOnlyCategory"`
	BlockingScope     string   `json:"blockingScope"`
	SafeDefault       string   `json:"safeDefault"`
	DecisionKey       *string  `json:"decisionKey"`
}

// Fingerprint returns the decision fingerprint of g: the SHA-256 of the
// compact sorted-key JSON of its decision identity (§3.3).
func Fingerprint(g Gate) string {
	id := identity{
		Project: g.Project, WorkUnit: g.WorkUnit, Question: strings.TrimSpace(g.Question),
		Choices: g.Choices, ExternalEffect: g.ExternalEffect, OwnerOnlyCategory: g.OwnerOnlyCategory,
		BlockingScope: g.BlockingScope, SafeDefault: g.SafeDefault, DecisionKey: g.DecisionKey,
	}
	if id.Choices == nil {
		id.Choices = []string{}
	}
	var b bytes.Buffer
	if err := canonical.Write(&b, id.value()); err != nil {
		// Unreachable: the value holds only strings, nils and string lists.
		return ""
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// value is the identity as the JSON value canonical.Write takes: what a
// JSON round trip of the struct gives, built directly (Fingerprint runs
// once per gate of every replay).
func (id identity) value() map[string]any {
	choices := make([]any, len(id.Choices))
	for i, c := range id.Choices {
		choices[i] = c
	}
	opt := func(s *string) any {
		if s == nil {
			return nil
		}
		return *s
	}
	return map[string]any{
		"project": id.Project, "workUnit": opt(id.WorkUnit), "question": id.Question, "choices": choices,
		"externalEffect": id.ExternalEffect, "ownerOnlyCategory": id.OwnerOnlyCategory, "blockingScope": id.BlockingScope,
		"safeDefault": id.SafeDefault, "decisionKey": opt(id.DecisionKey),
	}
}
