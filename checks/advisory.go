package checks

import "strings"

// Advisory is run as the App publishes it under `mode: advisory`: a run
// that concluded anything but neutral or skipped concludes neutral, its
// title says what it would have concluded and its summary opens with why
// it does not (docs/config.md, "mode"). Annotations are kept; a run that
// has not concluded, or already concluded neutral, is returned unchanged.
func Advisory(run Run) Run {
	would := run.Conclusion
	if would == "" || would == ConclusionNeutral || would == ConclusionSkipped {
		return run
	}
	run.Conclusion = ConclusionNeutral
	run.Title = "Advisory (would be " + string(would) + "): " + run.Title
	run.Summary = "**Advisory mode.** The repository config sets `mode: advisory`, so this check concludes " +
		"neutral and blocks nothing; enforcing, it would conclude **" + string(would) + "**:\n\n" +
		strings.TrimLeft(run.Summary, "\n")
	return run
}
