package gh

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Page sizes of the snapshot query. A list GitHub holds more of than these
// is marked truncated in the snapshot, so a check needing all of it fails
// closed instead of judging part of it.
const (
	// milestoneIssuesPage is more than an increment may hold (8), so an
	// over-full milestone is seen as such.
	milestoneIssuesPage = 20
	commitsPage         = 100
	filesPage           = 100
	commentsPage        = 100
	reviewsPage         = 100
	// suitesPage bounds the check suites read at the head: with a filter on
	// the App's own ID GitHub holds one or two; unfiltered, one per App or
	// workflow.
	suitesPage    = 20
	allSuitesPage = 50
	runsPage      = 50
	// attemptsPage bounds the cross-references read on a unit's issue, and
	// attemptCommentsPage the comments and reviews of each other attempt.
	attemptsPage        = 50
	attemptCommentsPage = 50
)

// queryPlan is one snapshot query's shape.
type queryPlan struct {
	pr       int
	appID    int64
	guesses  []int
	blockers bool
	needs    snapshot.Needs
}

// commentFields are the fields read of every issue or pull-request comment.
const commentFields = `totalCount nodes { databaseId url body createdAt updatedAt lastEditedAt author { __typename login } editor { login } }`

// attemptsQuery reads, on a unit's issue, the pull requests that mention
// it (GitHub records a cross-reference for each) with their conversations:
// a HOLD or gate made on one attempt applies to the unit's others.
var attemptsQuery = fmt.Sprintf(`timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: %d) { totalCount nodes { ... on CrossReferencedEvent { isCrossRepository source { __typename ... on PullRequest { number state body headRefOid comments(last: %d) { %s } reviews(last: %d) { totalCount nodes { %s } } } } } } }`,
	attemptsPage, attemptCommentsPage, commentFields, attemptCommentsPage, reviewFields)

// reviewFields are the fields read of every review.
const reviewFields = `databaseId url body state submittedAt lastEditedAt author { __typename login } commit { oid }`

// query builds the GraphQL query. Optional parts appear only when needs
// names them, so a check nobody enabled costs nothing.
func (p queryPlan) query() string {
	var b strings.Builder
	b.WriteString(`query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  nameWithOwner url
  defaultBranchRef { name target { ... on Commit { oid file(path: "` + ConfigPath + `") { object { ... on Blob { text isTruncated } } } } } }
`)
	if p.pr > 0 {
		p.writePull(&b)
	}
	if p.needs.Conversation {
		fmt.Fprintf(&b, "  control: issues(labels: [%q], states: [OPEN, CLOSED], first: 1, orderBy: {field: CREATED_AT, direction: ASC}) { nodes { number url comments(last: %d) { %s } } }\n",
			ControlLabel, commentsPage, commentFields)
	}
	deps := ""
	if p.blockers {
		deps = " blockedBy(first: 50) { totalCount nodes { number state repository { nameWithOwner } } }"
	}
	lanes := ""
	if p.needs.Lanes {
		lanes = lanesQuery
	}
	conv := ""
	if p.needs.Conversation {
		conv = fmt.Sprintf(" url comments(last: %d) { %s }\n    %s", commentsPage, commentFields, attemptsQuery)
	}
	for _, n := range sortedGuesses(p.guesses) {
		fmt.Fprintf(&b, `  u%d: issueOrPullRequest(number: %d) { __typename ... on Issue { number title body editor { login } state%s%s
    milestone { number title state description issues(first: %d) { totalCount nodes { number state body%s%s } } } } }
`, n, n, deps, conv, milestoneIssuesPage, deps, lanes)
	}
	b.WriteString("} }")
	return b.String()
}

// writePull adds the pull request and its head commit's check runs: only
// the App's own unless every head check is needed.
func (p queryPlan) writePull(b *strings.Builder) {
	fmt.Fprintf(b, "  pullRequest(number: %d) { number url body state headRefOid headRefName baseRefName baseRefOid author { __typename login }\n", p.pr)
	if p.needs.Commits {
		fmt.Fprintf(b, "    commits(last: %d) { totalCount nodes { commit { oid author { name email user { login } } committer { name email user { login } } } } }\n", commitsPage)
	}
	if p.needs.Files {
		fmt.Fprintf(b, "    files(first: %d) { totalCount nodes { path changeType } }\n", filesPage)
	}
	if p.needs.Conversation {
		fmt.Fprintf(b, "    comments(last: %d) { %s }\n", commentsPage, commentFields)
		fmt.Fprintf(b, "    reviews(last: %d) { totalCount nodes { %s } }\n", reviewsPage, reviewFields)
		b.WriteString("    reviewRequests(first: 50) { nodes { requestedReviewer { __typename ... on User { login } } } }\n")
	}
	suites, filter, app := fmt.Sprintf("first: %d", suitesPage), "", ""
	if p.needs.HeadChecks {
		suites = fmt.Sprintf("first: %d", allSuitesPage)
		app = " app { databaseId slug } status conclusion workflowRun { databaseId url event updatedAt workflow { name } }"
	} else if p.appID > 0 {
		filter = fmt.Sprintf(", filterBy: {appId: %d}", p.appID)
	}
	fmt.Fprintf(b, "    head: commits(last: 1) { nodes { commit { oid committedDate checkSuites(%s%s) { nodes {%s checkRuns(first: %d) { nodes { databaseId name status conclusion title summary text externalId detailsUrl } } } } } } }\n  }\n",
		suites, filter, app, runsPage)
}
