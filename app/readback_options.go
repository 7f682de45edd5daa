package app

import (
	"time"

	"github.com/aepgate/aepgate/app/readback"
)

// ReadbackSeams replace parts of the readback path (Seams.Readback); the
// zero value is what the App runs with. Tests inject broken variants here.
type ReadbackSeams struct {
	// Now is the clock readback deadlines are judged by (nil: time.Now).
	Now func() time.Time
	// Audited replaces the audit judged from the pull request's reviews
	// (nil: pull.Judge.Audited).
	Audited readback.AuditFunc
	// Reader wraps the installation's reads (nil: used as they are); a
	// test hands in observations GitHub can give but the fake cannot make.
	Reader func(readback.MergeReader) readback.MergeReader
	// Authority replaces who-merged's rule (nil: merge.Authority); a
	// negative control hands in one that holds every merge.
	Authority readback.AuthorityRule
}
