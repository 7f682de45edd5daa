package readback

import "time"

// Seams replace parts of the readback path (the App's Seams.Readback);
// the zero value is what the App runs with. Tests inject broken variants
// here.
type Seams struct {
	// Now is the clock readback deadlines are judged by (nil: time.Now).
	Now func() time.Time
	// Audited replaces the audit judged from the pull request's reviews
	// (nil: pull.Judge.Audited).
	Audited AuditFunc
	// Reader wraps the installation's reads (nil: used as they are); a
	// test hands in observations GitHub can give but the fake cannot make.
	Reader func(MergeReader) MergeReader
	// Authority replaces who-merged's rule (nil: merge.Authority); a
	// negative control hands in one that holds every merge.
	Authority AuthorityRule
	// Coverage replaces the clones the coverage is observed in (nil:
	// ClonesOf the installation): the test world's serve the fake's
	// repositories, a negative control one that compares no tree.
	Coverage CoverageSource
}

// Apply puts the seams that are set into j.
func (s Seams) Apply(j *Judge) *Judge {
	if s.Now != nil {
		j.Now = s.Now
	}
	if s.Audited != nil {
		j.Rules.Audited = s.Audited
	}
	if s.Coverage != nil {
		j.Coverage = s.Coverage
	}
	if s.Reader != nil {
		j.GitHub.Read = s.Reader(j.GitHub.Read)
	}
	return j
}
