package gh

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
)

// DefaultWritePause is the pause between two write requests of a publisher:
// GitHub asks integrations to make writes serially with at least a second
// between them (GitHub docs: Best practices for using the REST API; Rate
// limits for the REST API, secondary rate limits).
const DefaultWritePause = time.Second

// CheckPublisher writes checks.Run values to GitHub as check runs,
// idempotently: the same run (name, head SHA, external ID) is found and
// updated, never created twice, and annotations are sent 50 per request.
// Its writes are serial and WritePause apart; it is not safe for concurrent
// use.
type CheckPublisher struct {
	client *github.Client
	// AppID narrows the search for an earlier run to this App's runs; 0
	// (unknown, e.g. a GITHUB_TOKEN in a workflow) searches all apps.
	AppID int64
	// WritePause separates consecutive writes; tests set it to 0.
	WritePause time.Duration
	// Now stamps completed_at; nil means time.Now.
	Now func() time.Time

	lastWrite time.Time // when the previous write was sent
}

// NewCheckPublisher returns a publisher over client. appID may be 0 when the
// writing App is not known.
func NewCheckPublisher(client *github.Client, appID int64) *CheckPublisher {
	return &CheckPublisher{client: client, AppID: appID, WritePause: DefaultWritePause}
}

// Publish creates or updates the check run for run.Name at run.HeadSHA with
// run.ExternalID and returns its ID. It first cuts run to GitHub's limits
// (checks.Fit) and refuses an invalid run without a request. An earlier run
// with the same name, head SHA and external ID is found through
// GET /repos/{owner}/{repo}/commits/{ref}/check-runs?check_name=&filter=latest
// (+app_id when known) and updated; when it already says exactly this,
// nothing is written. The first 50 annotations go with the create or update
// and the rest follow in PATCH requests of 50, which GitHub appends.
//
// GitHub cannot delete annotations, so when an earlier run carries
// annotations this run no longer has, Publish creates a fresh run with the
// same name instead (GitHub shows only the newest run of a name); when it
// carries a subset, only the missing ones are appended.
//
// A rate-limit answer ends Publish with an error wrapping a *RateLimitError
// that says how long to wait; a 403 without rate limiting wraps
// ErrCheckForbidden (a read-only token). Publish never retries by itself.
//
// https://docs.github.com/rest/checks/runs
func (p *CheckPublisher) Publish(ctx context.Context, owner, repo string, run checks.Run) (int64, error) {
	return p.publish(ctx, owner, repo, run, true)
}

// PublishNew is Publish without looking for an earlier run: for a caller
// that has just read the head's runs and seen none of run's name and
// external ID (it saves one read per new run). Under a lock on the pull
// request, as the App holds, nobody can have written one meanwhile.
func (p *CheckPublisher) PublishNew(ctx context.Context, owner, repo string, run checks.Run) (int64, error) {
	return p.publish(ctx, owner, repo, run, false)
}

// publish is Publish, looking for an earlier run only when lookup is set.
func (p *CheckPublisher) publish(ctx context.Context, owner, repo string, run checks.Run, lookup bool) (int64, error) {
	run = checks.Fit(run)
	if err := checks.Validate(run); err != nil {
		return 0, fmt.Errorf("publish check run: %w", err)
	}
	var existing *github.CheckRun
	if lookup {
		var err error
		if existing, err = p.find(ctx, owner, repo, run); err != nil {
			return 0, err
		}
	}
	pending := run.Annotations
	if existing != nil {
		plan, err := p.planUpdate(ctx, owner, repo, existing, run)
		if err != nil {
			return 0, err
		}
		if plan.fresh {
			existing = nil
		} else {
			pending = plan.missing
			if plan.unchanged && len(pending) == 0 {
				return existing.GetID(), nil
			}
		}
	}
	return p.write(ctx, owner, repo, existing, run, pending)
}

// write creates run (existing nil) or updates existing with it, sending the
// pending annotations a page per request, with a pause before each.
func (p *CheckPublisher) write(ctx context.Context, owner, repo string, existing *github.CheckRun, run checks.Run, pending []checks.Annotation) (int64, error) {
	pages := checks.AnnotationPages(pending)
	first := firstPage(pages)
	var id int64
	var err error
	if err := p.pause(ctx); err != nil {
		return 0, fmt.Errorf("publish check run %q: %w", run.Name, err)
	}
	if existing == nil {
		id, err = p.create(ctx, owner, repo, run, first)
	} else {
		id = existing.GetID()
		err = p.update(ctx, owner, repo, id, run, first)
	}
	if err != nil {
		return id, err
	}
	for i := 1; i < len(pages); i++ {
		if err := p.pause(ctx); err != nil {
			return id, fmt.Errorf("publish check run %q: %w", run.Name, err)
		}
		if err := p.update(ctx, owner, repo, id, run, pages[i]); err != nil {
			return id, err
		}
	}
	return id, nil
}

// firstPage is the first of pages, or nil when there is none.
func firstPage(pages [][]checks.Annotation) []checks.Annotation {
	if len(pages) == 0 {
		return nil
	}
	return pages[0]
}

// find returns the newest earlier run with run's name, head SHA and
// external ID, or nil.
func (p *CheckPublisher) find(ctx context.Context, owner, repo string, run checks.Run) (*github.CheckRun, error) {
	opts := &github.ListCheckRunsOptions{
		CheckName:   github.String(run.Name),
		Filter:      github.String("latest"),
		ListOptions: github.ListOptions{PerPage: 100},
	}
	if p.AppID != 0 {
		opts.AppID = github.Int64(p.AppID)
	}
	var found *github.CheckRun
	for {
		res, resp, err := p.client.Checks.ListCheckRunsForRef(ctx, owner, repo, run.HeadSHA, opts)
		if err != nil {
			return nil, classify(fmt.Sprintf("find check run %q", run.Name), err)
		}
		for _, cr := range res.CheckRuns {
			if cr.GetName() == run.Name && cr.GetHeadSHA() == run.HeadSHA &&
				cr.GetExternalID() == run.ExternalID && (found == nil || cr.GetID() > found.GetID()) {
				found = cr
			}
		}
		if resp.NextPage == 0 {
			return found, nil
		}
		opts.Page = resp.NextPage
	}
}

func (p *CheckPublisher) create(ctx context.Context, owner, repo string, run checks.Run, anns []checks.Annotation) (int64, error) {
	opts := github.CreateCheckRunOptions{
		Name:       run.Name,
		HeadSHA:    run.HeadSHA,
		ExternalID: optional(run.ExternalID),
		DetailsURL: optional(run.DetailsURL),
		Status:     github.String(string(run.EffectiveStatus())),
		Conclusion: optional(string(run.Conclusion)),
		Output:     output(run, anns),
		Actions:    actions(run.Actions),
	}
	if run.Conclusion != "" {
		opts.CompletedAt = &github.Timestamp{Time: p.now()}
	}
	cr, _, err := p.client.Checks.CreateCheckRun(ctx, owner, repo, opts)
	if err != nil {
		return 0, classify(fmt.Sprintf("create check run %q", run.Name), err)
	}
	return cr.GetID(), nil
}

func (p *CheckPublisher) update(ctx context.Context, owner, repo string, id int64, run checks.Run, anns []checks.Annotation) error {
	opts := github.UpdateCheckRunOptions{
		Name:       run.Name,
		ExternalID: optional(run.ExternalID),
		DetailsURL: optional(run.DetailsURL),
		Status:     github.String(string(run.EffectiveStatus())),
		Conclusion: optional(string(run.Conclusion)),
		Output:     output(run, anns),
		Actions:    actions(run.Actions),
	}
	if run.Conclusion != "" {
		opts.CompletedAt = &github.Timestamp{Time: p.now()}
	}
	if _, _, err := p.client.Checks.UpdateCheckRun(ctx, owner, repo, id, opts); err != nil {
		return classify(fmt.Sprintf("update check run %q (%d)", run.Name, id), err)
	}
	return nil
}

func (p *CheckPublisher) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// pause waits until WritePause has passed since the previous write of this
// publisher (across Publish calls), or until ctx ends, and then records the
// coming write.
func (p *CheckPublisher) pause(ctx context.Context) error {
	defer func() { p.lastWrite = time.Now() }()
	if p.WritePause <= 0 {
		return ctx.Err()
	}
	return sleepCtx(ctx, time.Until(p.lastWrite.Add(p.WritePause)))
}
