package boardview

import "time"

// StallRule holds the health thresholds (stall.suspect_after and
// stall.stalled_after in the repository config).
type StallRule struct {
	SuspectAfter, StalledAfter time.Duration
}

// HealthAt is an open attempt's health at now: healthy while its newest
// evidence is at most SuspectAfter old, suspect up to StalledAfter,
// stalled beyond. Evidence dated in the future counts as new. Without any
// evidence the health is unknown (""). It is shown, never acted on.
func HealthAt(last, now time.Time, r StallRule) Health {
	if last.IsZero() {
		return ""
	}
	switch age := now.Sub(last); {
	case age <= r.SuspectAfter:
		return Healthy
	case age <= r.StalledAfter:
		return Suspect
	default:
		return Stalled
	}
}
