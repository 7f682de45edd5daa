package action

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
)

// degradeNote is said once when check runs cannot be written.
const degradeNote = "aepgate could not write check runs: %s. It reports through workflow annotations " +
	"(at most 10 per level) and this job summary instead; the step still fails when a check fails."

// publishAll writes each run as a check run. Without a token, or when
// GitHub answers 403 (a fork's pull request, a token without checks:
// write), it says so once and reports the runs that were not written as
// workflow annotations; the job summary is written in every case. Any other
// failure to write (a rate limit included) is returned, after the summary.
func (r *runner) publishAll(ctx context.Context, runs []checks.Run) error {
	pub := r.api.Checks
	reason := "no token was given (set the action's token input)"
	var unwritten []checks.Run
	var failure error
	for i, run := range runs {
		if pub == nil {
			unwritten = append(unwritten, runs[i:]...)
			break
		}
		id, err := pub.Publish(ctx, r.ev.Owner, r.ev.Repo, run)
		switch {
		case err == nil:
			r.gha.Infof("%s: %s — %s (check run %d)", run.Name, run.Conclusion, run.Title, id)
		case errors.Is(err, gh.ErrCheckForbidden):
			pub, reason = nil, r.forbiddenReason()
			unwritten = append(unwritten, runs[i:]...)
		default:
			failure = fmt.Errorf("publish %s: %w", run.Name, err)
			unwritten = append(unwritten, runs[i:]...)
		}
		if pub == nil || failure != nil {
			break
		}
	}
	var overflow []checks.Annotation
	if len(unwritten) > 0 && failure == nil {
		note := fmt.Sprintf(degradeNote, reason)
		r.gha.Warningf("%s", note)
		r.notes = append(r.notes, note)
		for _, run := range unwritten {
			r.gha.Infof("%s: %s — %s (not written as a check run; details in the job summary)", run.Name, run.Conclusion, run.Title)
		}
		overflow = r.annotate(unwritten)
	}
	summary := checks.JobSummary(runs, r.notes, overflow)
	if err := appendFile(r.ev.SummaryPath, summary); err != nil {
		return errors.Join(failure, fmt.Errorf("write the job summary: %w", err))
	}
	return failure
}

// forbiddenReason explains a 403 on a check-run write.
func (r *runner) forbiddenReason() string {
	if pr := r.ev.PR; pr != nil && pr.Fork() {
		return fmt.Sprintf("GitHub answered 403: this pull request comes from the fork %s, and a fork's workflow token is read-only", pr.HeadRepo)
	}
	return "GitHub answered 403: the token lacks checks: write (give the job `permissions: checks: write`, or pass a token that has it)"
}

// annotate prints the runs' annotations as workflow commands, up to the
// per-level cap, and returns the rest for the job summary.
func (r *runner) annotate(runs []checks.Run) []checks.Annotation {
	shown, overflow := checks.SplitWorkflowAnnotations(runs)
	for _, a := range shown {
		fields := map[string]string{"file": a.Path, "line": strconv.Itoa(a.StartLine), "endLine": strconv.Itoa(a.EndLine)}
		if a.Title != "" {
			fields["title"] = a.Title
		}
		if a.StartColumn > 0 {
			fields["col"] = strconv.Itoa(a.StartColumn)
		}
		if a.EndColumn > 0 {
			fields["endColumn"] = strconv.Itoa(a.EndColumn)
		}
		w := r.gha.WithFieldsMap(fields)
		switch a.Level {
		case checks.LevelFailure:
			w.Errorf("%s", a.Message)
		case checks.LevelWarning:
			w.Warningf("%s", a.Message)
		default:
			w.Noticef("%s", a.Message)
		}
	}
	return overflow
}

// writeOutputs writes conclusion, problems and status-json.
func (r *runner) writeOutputs(runs []checks.Run) error {
	statusJS := r.status
	if statusJS == nil {
		statusJS = []statusJSON{}
	}
	js, err := statusOutput(statusJS)
	if err != nil {
		return fmt.Errorf("write outputs: %w", err)
	}
	text, err := formatOutputs([]output{
		{"conclusion", string(overall(runs))},
		{"problems", strconv.Itoa(r.problems)},
		{"status-json", string(js)},
	}, r.o.Rand)
	if err != nil {
		return err
	}
	if err := appendFile(r.ev.OutputPath, text); err != nil {
		return fmt.Errorf("write outputs: %w", err)
	}
	return nil
}

// MaxStatusJSONBytes bounds the status-json output: a job's outputs share
// 1 MB (GitHub docs: Metadata syntax for GitHub Actions; docs/action.md).
const MaxStatusJSONBytes = 512 << 10

// statusOutput marshals the status entries; when that exceeds
// MaxStatusJSONBytes, the per-item lists are left out (items_omitted: true),
// keeping phases, counts, open IDs and the most recent entry.
func statusOutput(entries []statusJSON) ([]byte, error) {
	js, err := json.Marshal(entries)
	if err != nil || len(js) <= MaxStatusJSONBytes {
		return js, err
	}
	short := make([]statusJSON, len(entries))
	for i, e := range entries {
		short[i] = e
		if e.Status != nil {
			rep := *e.Status
			rep.Items = nil
			short[i].Status, short[i].ItemsOmitted = &rep, true
		}
	}
	return json.Marshal(short)
}
