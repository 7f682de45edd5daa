package demo

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// appRoutes are the routes only the App calls in the story (its snapshot
// query, its check-run writes, the owner's live permission and its
// reactions and replies), so the outage hits the App and not the Action.
var appRoutes = []string{
	"POST /graphql",
	"POST /repos/{owner}/{repo}/check-runs",
	"PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
	"GET /repos/{owner}/{repo}/collaborators/{username}/permission",
	"POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
	"POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
}

// playOutage is the happy story with GitHub failing the App's calls from
// the contract change to the audit FAIL: 502s, secondary rate limits with
// Retry-After, and one check-run create applied whose answer is lost.
func playOutage(ctx context.Context, w *world) error {
	st := newStory(ctx, w)
	beats := st.toPass()
	story := append([]beat{}, beats[:4]...)
	story = append(story, st.outageStarts())
	story = append(story, beats[4:10]...)
	story = append(story, st.outageEnds())
	story = append(story, beats[10:]...)
	err := st.playBeats(append(story, st.mergePR(), st.mainCI(), st.fetchCertificate(), st.release(), st.keepsBoard())...)
	st.expects = append(st.headExpects("PR head 3"), st.deliveredExpects()...)
	if err == nil && w.f.Stats().Faults == 0 {
		return fmt.Errorf("the outage injected no fault")
	}
	return err
}

// outageStarts makes GitHub fail a share of the App's calls.
func (st *story) outageStarts() beat {
	return beat{title: "GitHub starts failing the App: 502 on 1 call in 5, secondary rate limits (403, Retry-After: 1) on its next 3 snapshot queries, one check-run create applied but its answer lost",
		act: func() error {
			st.w.f.Seed(19)
			st.w.f.InjectFault("POST /repos/{owner}/{repo}/check-runs", ghfake.Fault{Kind: ghfake.FaultLostResponse, Times: 1})
			st.w.f.InjectFault("POST /graphql", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 1, Times: 3})
			for _, route := range appRoutes {
				st.w.f.InjectFault(route, ghfake.Fault{Kind: ghfake.FaultStatus, Status: 502, Rate: 0.2})
			}
			return nil
		}}
}

// outageEnds clears the faults and says how many requests failed.
func (st *story) outageEnds() beat {
	return beat{title: "GitHub recovers: no more injected failures",
		act: func() error { st.w.f.ClearFaults(); return nil },
		detail: func() (string, error) {
			return fmt.Sprintf("%d requests failed on purpose so far; the App retried each job until GitHub answered", st.w.f.Stats().Faults), nil
		}}
}
