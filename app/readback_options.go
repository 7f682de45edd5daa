package app

import (
	"time"

	"github.com/aepgate/aepgate/app/readback"
)

// readbackOptions are the readback path's injected parts; the zero value
// is what the App runs with.
type readbackOptions struct {
	// now is the clock readback deadlines are judged by (nil: time.Now).
	now func() time.Time
	// audited replaces the audit judged from the pull request's reviews
	// (nil: pull.Judge.Audited).
	audited readback.AuditFunc
	// reader wraps the installation's reads (nil: used as they are); a
	// test hands in observations GitHub can give but the fake cannot make.
	reader func(readback.MergeReader) readback.MergeReader
	// authority replaces who-merged's rule (nil: merge.Authority); a
	// negative control hands in one that holds every merge.
	authority readback.AuthorityRule
}
