package app

import (
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/gates"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/route"
)

// Families is the App's table of event families, one line per family, each
// exported by the feature that owns its events.
func Families() route.Table {
	return route.Table{
		pull.PullRequestFamily(),
		gates.ConversationFamily(),
		pull.ReviewFamily(),
		pull.ChecksFamily(),
		pull.MergeGroupFamily(),
		release.Family(),
		pull.IssuesFamily(),
		pull.PushFamily(),
		deploy.Family(),
	}
}

// Events is every webhook event the App handles, sorted: the events of its
// family table (Families), which the manifest subscribes to.
func Events() []string { return Families().Events() }

// sweep is what the periodic sweep does for each repository: judge the
// open pull requests, verify the Latest release (GitHub sends no event
// when an asset changes), read back recent merges, judge the deployments
// still waiting and the increments (lost closures too, unless
// Options.openMilestonesOnly, a negative control).
func (a *App) sweep() []route.Work {
	return []route.Work{pull.JudgeOpen{}, release.JudgeRelease{Latest: true}, readback.ReadBack{Sweep: true}, deploy.JudgeDeploys{Sweep: true},
		increment.JudgeIncrements{Open: true, Closed: !a.opts.Seams.OpenMilestonesOnly}}
}
