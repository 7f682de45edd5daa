package verdict

import (
	"fmt"
	"maps"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/ledger"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// GuessUnits is the unit a body names (workunit.SoleUnit), as the
// snapshot's guess (the body is re-read from GitHub and checked); none
// when it names none or several, which fail anyway.
func GuessUnits(body, repo string) []int {
	if n, ok := workunit.SoleUnit(body, repo); ok {
		return []int{n}
	}
	return nil
}

// AttemptNumbers are the unit's other open pull requests the evaluation saw.
func AttemptNumbers(ev *Evaluation) []int {
	var out []int
	for _, a := range ev.Attempts() {
		out = append(out, a.Number)
	}
	return out
}

// MustWrite reports whether run must be published: unless the head's
// newest run of its name already shows it (checks.Unchanged). A run with
// annotations the summary does not list is always handed to the publisher,
// which compares annotations too.
func MustWrite(pull *snapshot.Pull, run checks.Run) bool {
	if !pull.RunsKnown {
		return true
	}
	old := pull.Latest(run.Name)
	return old == nil || !checks.Unchanged(*old, run) || !summaryListsAnnotations(run)
}

// summaryListsAnnotations reports whether every annotation's message is in
// the summary, so equal summaries mean equal annotations.
func summaryListsAnnotations(run checks.Run) bool {
	for _, a := range run.Annotations {
		if !strings.Contains(run.Summary, a.Message) {
			return false
		}
	}
	return true
}

// Entry is a decision's ledger row: the inputs' IDs and SHAs, the check's
// own facts and the result.
func Entry(at Origin, ev *Evaluation, name string, out Outcome, write bool) ledger.Entry {
	snap := ev.Snap
	body := map[string]any{
		"config_valid": ev.ConfigValid(),
		"event":        at.Event, "repository": at.Owner + "/" + at.Repo, "pull_request": at.PR,
		"head_sha": snap.Pull.HeadSHA, "config_commit": snap.Config.CommitSHA,
		"conclusion": out.Run.Conclusion, "title": out.Run.Title, "write": write,
	}
	for k, v := range out.Facts {
		body[k] = v
	}
	return ledger.Entry{
		Kind: "check_run:" + name, DeliveryID: at.Delivery,
		Subject: fmt.Sprintf("%s/%s#%d@%s", at.Owner, at.Repo, at.PR, snap.Pull.HeadSHA),
		Body:    body,
	}
}

// Absent reports whether the snapshot showed that the head has no run of
// run's name and external ID, so publishing needs no search for one.
func Absent(pull *snapshot.Pull, run checks.Run) bool {
	if !pull.RunsKnown {
		return false
	}
	for _, r := range pull.Runs {
		if r.Name == run.Name && r.ExternalID == run.ExternalID {
			return false
		}
	}
	return true
}

// Published is out as the App publishes it: with an owner's override in
// force on its check applied (overridden); under `mode: advisory`
// (config.ModeAdvisory) its run is checks.Advisory's, and its ledger facts
// keep what it would have concluded (would_conclude). An invalid config is
// never advisory.
func (ev *Evaluation) Published(out Outcome) Outcome {
	out = ev.overridden(out)
	if out.Skip || ev.Cfg == nil || !ev.ConfigValid() || ev.Cfg.Mode != config.ModeAdvisory {
		return out
	}
	run := checks.Advisory(out.Run)
	if run.Conclusion == out.Run.Conclusion {
		return out
	}
	facts := maps.Clone(out.Facts)
	if facts == nil {
		facts = map[string]any{}
	}
	facts["would_conclude"] = out.Run.Conclusion
	return Outcome{Run: run, Facts: facts}
}
