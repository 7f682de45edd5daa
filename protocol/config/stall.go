package config

import (
	"time"

	"go.yaml.in/yaml/v3"
)

// Stall says when an open attempt's newest evidence (a push, a workflow
// run, a structured report comment) is old: healthy up to SuspectAfter,
// suspect up to StalledAfter, stalled beyond. The board shows it; nothing
// acts on it.
type Stall struct {
	SuspectAfter time.Duration `json:"suspect_after"`
	StalledAfter time.Duration `json:"stalled_after"`
}

// Defaults and bounds of the stall durations and the WIP limits.
const (
	DefaultSuspectAfter  = 15 * time.Minute
	DefaultStalledAfter  = 30 * time.Minute
	MinStallAfter        = time.Minute
	MaxStallAfter        = 30 * 24 * time.Hour
	maxAttemptsPerUnit   = 10
	maxLanesPerIncrement = 8 // an increment holds at most 8 stories
)

// stall decodes the stall mapping into s: each duration is a Go duration
// or a number of seconds between MinStallAfter and MaxStallAfter, and
// stalled_after must exceed suspect_after.
func (d *decoder) stall(v *yaml.Node, field string, s *Stall) {
	var last *yaml.Node
	set := func(dst *time.Duration) func(v *yaml.Node, f string) {
		return func(v *yaml.Node, f string) {
			dur, ok := d.duration(v, f)
			if !ok {
				return
			}
			if dur < MinStallAfter || dur > MaxStallAfter {
				d.errorf(v, f, "must be between %s and %s, not %s", MinStallAfter, MaxStallAfter, dur)
				return
			}
			*dst, last = dur, v
		}
	}
	d.fields(v, field, fieldSetters{
		"suspect_after": set(&s.SuspectAfter),
		"stalled_after": set(&s.StalledAfter),
	})
	if last != nil && s.StalledAfter <= s.SuspectAfter {
		d.errorf(last, field+".stalled_after", "must be longer than suspect_after (%s), not %s", s.SuspectAfter, s.StalledAfter)
	}
}
