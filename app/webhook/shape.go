package webhook

import "slices"

// MaxDepth is how deeply a webhook body's JSON may nest objects and
// arrays; a deeper body is refused with 400 (docs/app.md, "Endpoints").
// GitHub's payloads nest about ten deep. Nothing after the edge refuses a
// deeper body (a job keeps its payload as one JSON string, so no
// database's JSON nesting limit applies), so this limit alone keeps the
// decoding pass's and the job's work on such a body bounded, and answers
// it with a reason that redelivery cannot change.
const MaxDepth = 500

// maxKeys and maxKeyLen bound what the decoding pass remembers of a
// body's top-level keys; GitHub's payloads have about ten short ones.
const (
	maxKeys   = 256
	maxKeyLen = 64
)

// eventShape is what an event's payload carries at its top level: every
// key in must (the keys that name what the event is about), and of the
// subject keys of other events (subjectKeys) only those in may.
type eventShape struct {
	must, may []string
}

// subjectKeys are the top-level keys that name what an event is about;
// a payload carrying one its event never carries belongs to another event.
var subjectKeys = []string{"check_run", "check_suite", "comment", "commits", "deployment", "deployment_status", "hook", "issue",
	"label", "merge_group", "milestone", "projects_v2_item", "pull_request", "release", "repositories_added",
	"review", "thread", "workflow_job", "workflow_job_run", "workflow_run"}

// eventShapes is the table of GitHub's events as their recorded payloads
// (@octokit/webhooks-examples) carry them. An event not in it is not
// judged.
var eventShapes = map[string]eventShape{
	"check_run":                   {must: []string{"check_run"}},
	"check_suite":                 {must: []string{"check_suite"}},
	"create":                      {must: []string{"ref", "ref_type"}},
	"delete":                      {must: []string{"ref", "ref_type"}},
	"deployment":                  {must: []string{"deployment"}, may: []string{"workflow_run"}},
	"deployment_review":           {must: []string{"workflow_job_run"}, may: []string{"workflow_run"}},
	"deployment_status":           {must: []string{"deployment", "deployment_status"}, may: []string{"check_run", "workflow_run"}},
	"installation":                {must: []string{"installation"}},
	"installation_repositories":   {must: []string{"installation", "repositories_added"}},
	"issue_comment":               {must: []string{"comment", "issue"}},
	"issues":                      {must: []string{"issue"}, may: []string{"label", "milestone"}},
	"label":                       {must: []string{"label"}},
	"merge_group":                 {must: []string{"merge_group"}},
	"milestone":                   {must: []string{"milestone"}},
	"ping":                        {must: []string{"zen"}, may: []string{"hook"}},
	"projects_v2_item":            {must: []string{"projects_v2_item"}},
	"pull_request":                {must: []string{"pull_request"}, may: []string{"label", "milestone"}},
	"pull_request_review":         {must: []string{"pull_request", "review"}},
	"pull_request_review_comment": {must: []string{"comment", "pull_request"}},
	"pull_request_review_thread":  {must: []string{"pull_request", "thread"}},
	"push":                        {must: []string{"ref", "commits"}},
	"release":                     {must: []string{"release"}},
	"status":                      {must: []string{"sha", "state"}},
	"workflow_job":                {must: []string{"workflow_job"}, may: []string{"deployment"}},
	"workflow_run":                {must: []string{"workflow_run"}},
}

// fits reports whether a body with top-level keys fits event in shapes,
// and when not, the key that is missing or foreign.
func fits(shapes map[string]eventShape, event string, keys []string) (ok bool, missing, foreign string) {
	sh, known := shapes[event]
	if !known {
		return true, "", ""
	}
	for _, k := range sh.must {
		if !slices.Contains(keys, k) {
			return false, k, ""
		}
	}
	for _, k := range keys {
		if slices.Contains(subjectKeys, k) && !slices.Contains(sh.must, k) && !slices.Contains(sh.may, k) {
			return false, "", k
		}
	}
	return true, "", ""
}
