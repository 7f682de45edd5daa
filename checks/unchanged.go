package checks

import "github.com/aepgate/aepgate/protocol/snapshot"

// Unchanged reports whether old, a run GitHub already holds under run's
// name on run's head, shows exactly what run would write: the same status,
// conclusion, output title, summary and text, the same external ID, and the
// same details URL when run sets one. A run with actions is never unchanged:
// GitHub does not return a run's actions, so they cannot be compared. run is
// compared as Fit cuts it, since that is what would be written.
//
// This is aepgate's one "unchanged, so don't write" rule: the App asks it
// before publishing, and internal/gh's publisher asks it again for the run it
// found by name, head and external ID. Annotations are compared separately by
// the publisher (GitHub can append them but not delete them).
func Unchanged(old snapshot.ExistingRun, run Run) bool {
	run = Fit(run)
	return len(run.Actions) == 0 &&
		old.Status == string(run.EffectiveStatus()) &&
		old.Conclusion == string(run.Conclusion) &&
		old.Title == OutputTitle(run) &&
		old.Summary == run.Summary && old.Text == run.Text &&
		old.ExternalID == run.ExternalID &&
		(run.DetailsURL == "" || old.DetailsURL == run.DetailsURL)
}

// OutputTitle is the output title a run is written with: its Title, or its
// Name when it has none (GitHub requires a title whenever output is sent).
func OutputTitle(r Run) string {
	if r.Title == "" {
		return r.Name
	}
	return r.Title
}
