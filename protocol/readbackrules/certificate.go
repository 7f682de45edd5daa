package readbackrules

import (
	"strconv"

	"github.com/aepgate/aepgate/protocol/certificate"
)

// Fill copies the readback evidence into c: the PR CI and merged-main run
// IDs with their workflows, the three success flags and the merge SHA. The
// flags are true only when Decide found them proven; a certificate filled
// from an unverified result does not validate.
func (r Result) Fill(c *certificate.Certificate, mergeSha string) {
	c.RequiredCiRunIds, c.RequiredCiRuns = named(r.RequiredCiRuns)
	c.MergedMainRunIds, c.MergedMainRuns = named(r.MergedMainRuns)
	c.RequiredCiAllSuccess = r.RequiredCiAllSuccess
	c.MergedMainAllSuccess = r.MergedMainAllSuccess
	c.HeadUnchanged = r.HeadUnchanged
	c.MergeSha = mergeSha
}

func named(runs []Run) ([]string, []certificate.Run) {
	ids := []string{}
	out := []certificate.Run{}
	for _, r := range runs {
		id := strconv.FormatInt(r.ID, 10)
		ids = append(ids, id)
		out = append(out, certificate.Run{ID: id, Workflow: r.Workflow})
	}
	return ids, out
}
