package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// updatePlan says how to bring an earlier run up to date.
type updatePlan struct {
	// fresh: the earlier run holds annotations this run no longer has, which
	// GitHub cannot delete; create a new run instead.
	fresh bool
	// unchanged: status, conclusion and output already match.
	unchanged bool
	// missing are the annotations still to append.
	missing []checks.Annotation
}

// planUpdate compares an earlier run with run. It lists the earlier run's
// annotations only when it has some.
func (p *CheckPublisher) planUpdate(ctx context.Context, owner, repo string, old *github.CheckRun, run checks.Run) (updatePlan, error) {
	plan := updatePlan{unchanged: sameState(old, run), missing: run.Annotations}
	if old.GetOutput().GetAnnotationsCount() == 0 {
		return plan, nil
	}
	have, err := p.listAnnotations(ctx, owner, repo, old.GetID())
	if err != nil {
		return plan, err
	}
	want := make(map[annotationKey]int, len(run.Annotations))
	for _, a := range run.Annotations {
		want[keyOf(a)]++
	}
	for _, a := range have {
		k := keyOfGitHub(a)
		if want[k] == 0 {
			return updatePlan{fresh: true}, nil
		}
		want[k]--
	}
	plan.missing = nil
	for _, a := range run.Annotations {
		if k := keyOf(a); want[k] > 0 {
			want[k]--
			plan.missing = append(plan.missing, a)
		}
	}
	return plan, nil
}

// sameState reports whether old already shows run, by checks.Unchanged
// (aepgate's one "unchanged" rule); the publisher found old by name, head
// and external ID.
func sameState(old *github.CheckRun, run checks.Run) bool {
	return checks.Unchanged(existingRun(old), run)
}

// existingRun is what a REST check run says, in the snapshot's terms.
func existingRun(r *github.CheckRun) snapshot.ExistingRun {
	out := r.GetOutput()
	return snapshot.ExistingRun{ID: r.GetID(), Name: r.GetName(), Status: r.GetStatus(), Conclusion: r.GetConclusion(),
		Title: out.GetTitle(), Summary: out.GetSummary(), Text: out.GetText(), ExternalID: r.GetExternalID(), DetailsURL: r.GetDetailsURL()}
}

func (p *CheckPublisher) listAnnotations(ctx context.Context, owner, repo string, id int64) ([]*github.CheckRunAnnotation, error) {
	opts := &github.ListOptions{PerPage: 100}
	var all []*github.CheckRunAnnotation
	for {
		page, resp, err := p.client.Checks.ListCheckRunAnnotations(ctx, owner, repo, id, opts)
		if err != nil {
			return nil, classify(fmt.Sprintf("list annotations of check run %d", id), err)
		}
		all = append(all, page...)
		if resp.NextPage == 0 {
			return all, nil
		}
		opts.Page = resp.NextPage
	}
}

// annotationKey identifies an annotation for comparison with what GitHub
// already holds.
type annotationKey struct {
	path           string
	start, end     int
	level          string
	title, message string
}

func keyOf(a checks.Annotation) annotationKey {
	return annotationKey{a.Path, a.StartLine, a.EndLine, string(a.Level), a.Title, a.Message}
}

func keyOfGitHub(a *github.CheckRunAnnotation) annotationKey {
	return annotationKey{a.GetPath(), a.GetStartLine(), a.GetEndLine(), a.GetAnnotationLevel(), a.GetTitle(), a.GetMessage()}
}

// output is the check run's output carrying one page of annotations. GitHub
// requires title and summary whenever output is sent.
func output(run checks.Run, anns []checks.Annotation) *github.CheckRunOutput {
	out := &github.CheckRunOutput{
		Title:   github.String(checks.OutputTitle(run)),
		Summary: github.String(run.Summary),
		Text:    optional(run.Text),
	}
	for _, a := range anns {
		out.Annotations = append(out.Annotations, &github.CheckRunAnnotation{
			Path:            github.String(a.Path),
			StartLine:       github.Int(a.StartLine),
			EndLine:         github.Int(a.EndLine),
			StartColumn:     optionalInt(a.StartColumn),
			EndColumn:       optionalInt(a.EndColumn),
			AnnotationLevel: github.String(string(a.Level)),
			Title:           optional(a.Title),
			Message:         github.String(a.Message),
			RawDetails:      optional(a.RawDetails),
		})
	}
	return out
}

func actions(as []checks.Action) []*github.CheckRunAction {
	var out []*github.CheckRunAction
	for _, a := range as {
		out = append(out, &github.CheckRunAction{Label: a.Label, Description: a.Description, Identifier: a.Identifier})
	}
	return out
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optionalInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
