package config

import (
	"math"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// Readback bounds the App's merged-main readback.
type Readback struct {
	// Timeout is how long after a merge the App waits for the readback runs
	// on the default branch; a wait longer than this fails aepgate/readback.
	Timeout time.Duration `json:"timeout"`
	// Coverage is how a squash or rebase merge is proven to be the audited
	// change: CoverageReplay (the default) or CoverageStrict
	// (docs/coverage.md). A merge commit's tree is compared under both.
	Coverage string `json:"coverage"`
}

// The values of Readback.Coverage (protocol/readbackrules's rules).
const (
	CoverageReplay = "replay"
	CoverageStrict = "strict"
)

// Bounds of readback.timeout: craft-protocol's external waits last from
// 60 seconds to 7 days.
const (
	DefaultReadbackTimeout = 6 * time.Hour
	MinReadbackTimeout     = time.Minute
	MaxReadbackTimeout     = 7 * 24 * time.Hour
)

// readback decodes the readback mapping into r: timeout is a Go duration
// ("6h", "90m") or a number of seconds, between MinReadbackTimeout and
// MaxReadbackTimeout; coverage is replay or strict.
func (d *decoder) readback(v *yaml.Node, field string, r *Readback) {
	d.fields(v, field, fieldSetters{
		"timeout": func(v *yaml.Node, f string) {
			dur, ok := d.duration(v, f)
			if !ok {
				return
			}
			if dur < MinReadbackTimeout || dur > MaxReadbackTimeout {
				d.errorf(v, f, "must be between %s and %s, not %s", MinReadbackTimeout, MaxReadbackTimeout, dur)
				return
			}
			r.Timeout = dur
		},
		"coverage": func(v *yaml.Node, f string) {
			s, ok := d.str(v, f)
			if ok && s != CoverageReplay && s != CoverageStrict {
				d.errorf(v, f, "must be %q or %q, not %q", CoverageReplay, CoverageStrict, s)
				return
			}
			if ok {
				r.Coverage = s
			}
		},
	})
}

// duration decodes a Go duration or a number of seconds, without bounds.
func (d *decoder) duration(v *yaml.Node, f string) (time.Duration, bool) {
	const want = `must be a Go duration like "6h" or "90m", or a number of seconds`
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!int" && v.Tag != "!!float") {
		d.errorf(v, f, "%s, not %s", want, kindName(v))
		return 0, false
	}
	if dur, err := time.ParseDuration(v.Value); err == nil {
		return dur, true
	}
	secs, err := strconv.ParseFloat(v.Value, 64)
	if err != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || math.Abs(secs) > MaxReadbackTimeout.Seconds()*10 {
		d.errorf(v, f, "%s, not %q", want, v.Value)
		return 0, false
	}
	return time.Duration(secs * float64(time.Second)), true
}
