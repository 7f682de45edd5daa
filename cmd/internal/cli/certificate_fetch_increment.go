package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The refusals certificate fetch --increment gives beside the run's.
const (
	tokenIncrementMissing   = "increment-missing"
	tokenIncrementUntrusted = "increment-writer-untrusted"
	tokenIncrementMilestone = "increment-milestone-mismatch"
)

// certificateFetchIncrementHelp is what --help adds for --increment.
const certificateFetchIncrementHelp = `

With --increment N it reads the check runs named aepgate/increment on --sha
instead (the milestone's integrated commit, named in the run the App keeps
there) and trusts the newest the App wrote: its summary's canonical JSON,
SHA-256 in title and external_id (sha256:<hex>), success, integratedSha
--sha and the increment certificate valid (protocol/incrementrules: the stories
with their merge commits and certificates, the readback run IDs, the
owner's acceptance for a high increment), for milestone N. It prints the
certificate as the unit certificate is printed, with the same exit codes.
With --attestation it also reads the signed increment envelope from the
run's output text and, for every story the certificate names a signed unit
envelope of (envelopeSha256), that story's aepgate/certificate run on its
mergeSha (the App's, as above) and the envelope in its text; it verifies
them all offline as 'aepgate certificate verify --story' does and prints the
increment envelope (one JSON line). A refusal exits 1.`

// incrementFetch is certificate fetch --increment: the App's aepgate/increment
// run on --sha, verified for milestone fl.increment.
func incrementFetch(ctx context.Context, s streams, fl certificateFetchFlags, runs []gh.CheckRunRecord, lookup lookupFunc) error {
	app := appIdentity{id: fl.appID, slug: fl.appSlug}
	run, canonical, rs := judgeIncrement(runs, app.wrote, fl.increment)
	if len(rs) > 0 {
		where := "increment certificate on " + fl.sha
		if run != nil {
			where = fmt.Sprintf("check run %d", run.ID)
		}
		explainRefusals(s.err, where, rs)
		if fl.format == formatJSON {
			writeJSON(s.out, map[string]any{"certified": false, "errors": refusal.Tokens(rs)})
		}
		return failf(exitFindings, "certificate fetch: refused: %s", strings.Join(refusal.Tokens(rs), ", "))
	}
	sum := certificate.FileFingerprint(canonical)
	fmt.Fprintf(s.err, "increment certificate: milestone %d, check run %d by %s, sha256 %s\n", fl.increment, run.ID, writer(*run), sum)
	if fl.attestation {
		return fetchedIncrementAttestation(ctx, s, fl, run, canonical, lookup)
	}
	var err error
	if fl.format == formatJSON {
		err = writeJSON(s.out, map[string]any{"certified": true, "check_run_id": run.ID, "sha256": sum, "certificate": json.RawMessage(canonical)})
	} else {
		_, err = s.out.Write(canonical)
	}
	if err != nil {
		return failf(exitUsage, "certificate fetch: %w", err)
	}
	return nil
}

// judgeIncrement picks the newest run the App wrote (trusted decides; the
// negative-control test passes one that trusts any) and verifies it as an
// increment certificate of milestone.
func judgeIncrement(runs []gh.CheckRunRecord, trusted func(gh.CheckRunRecord) bool, milestone int) (*gh.CheckRunRecord, []byte, []refusal.Refusal) {
	var pick *gh.CheckRunRecord
	for i := range runs {
		if trusted(runs[i]) && (pick == nil || runs[i].ID > pick.ID) {
			pick = &runs[i]
		}
	}
	switch {
	case len(runs) == 0:
		return nil, nil, []refusal.Refusal{{Token: tokenIncrementMissing, Expected: "a check run " + checks.NameIncrement + " on the commit, written by the aepgate App", Seen: "no check run of that name"}}
	case pick == nil:
		return nil, nil, []refusal.Refusal{{Token: tokenIncrementUntrusted, Expected: "a check run " + checks.NameIncrement + " written by the App named with --app-id/--app-slug", Seen: "only runs by " + writers(runs)}}
	}
	cert, rs := checks.VerifyIncrementRun(asRun(*pick))
	body, _, err := checks.IncrementFromSummary(pick.Summary)
	if err != nil {
		body = nil
	}
	if len(rs) == 0 && cert.Milestone != milestone {
		rs = append(rs, refusal.Refusal{Token: tokenIncrementMilestone, Expected: "the certificate of milestone " + strconv.Itoa(milestone), Seen: "milestone " + strconv.Itoa(cert.Milestone)})
	}
	return pick, body, rs
}
