package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// fetchedIncrementAttestation verifies the signed increment envelope on
// the trusted run with the story envelopes it names, read from the App's
// certificate runs on the stories' merge commits, and prints it.
func fetchedIncrementAttestation(ctx context.Context, s streams, fl certificateFetchFlags, run *gh.CheckRunRecord, canonical []byte, lookup lookupFunc) error {
	env, err := checks.AttestationFromText(run.Text)
	if err != nil {
		return failf(exitFindings, "certificate fetch: refused: %s: check run %d: %w", attest.TokenEnvelopeMalformed, run.ID, err)
	}
	var c incrementrules.Certificate
	if err := json.Unmarshal(canonical, &c); err != nil {
		return failf(exitFindings, "certificate fetch: %w", err)
	}
	var stories [][]byte
	for _, st := range c.Stories {
		if st.EnvelopeSha256 == "" {
			continue
		}
		raw, err := storyEnvelope(ctx, s, fl, st, lookup)
		if err != nil {
			return err
		}
		stories = append(stories, raw)
	}
	v, err := attest.VerifyIncrement(env, fl.ring, attest.Want{SHA: fl.sha, Repository: fl.repo}, stories)
	var r *attest.Refused
	if errors.As(err, &r) {
		fmt.Fprintf(s.err, "check run %d: %s\n", run.ID, r)
		return failf(exitFindings, "certificate fetch: refused: %s", r.Token)
	}
	if err != nil {
		return failf(exitFindings, "certificate fetch: %w", err)
	}
	if !bytes.Equal(v.Certificate, canonical) {
		return failf(exitFindings, "certificate fetch: refused: the signed increment certificate (sha256 %s) is not the summary's (sha256 %s)", v.Fingerprint, certificate.FileFingerprint(canonical))
	}
	fmt.Fprintf(s.err, "attestation: signed by key %s, subject %s in %s, %d story envelopes verified\n", v.KeyID, v.SHA, v.Repository, len(v.Stories))
	if _, err := s.out.Write(append(env, '\n')); err != nil {
		return failf(exitUsage, "certificate fetch: %w", err)
	}
	return nil
}

// storyEnvelope reads the signed envelope on the App's certificate run on
// the story's merge commit. It does not verify it: VerifyIncrement does.
func storyEnvelope(ctx context.Context, s streams, fl certificateFetchFlags, st incrementrules.CertStory, lookup lookupFunc) ([]byte, error) {
	at := fl
	at.sha = st.MergeSha
	owner, name, _ := fetchUsage(at)
	runs, err := fetchRuns(ctx, at, lookup, owner, name, checks.NameCertificate)
	if err != nil {
		return nil, failf(networkCode(err, exitFindings), "certificate fetch: story #%d: %w", st.Unit, err)
	}
	got := judgeCertificate(runs, appIdentity{id: fl.appID, slug: fl.appSlug}.wrote)
	if len(got.refusals) > 0 {
		explainRefusals(s.err, fmt.Sprintf("story #%d's certificate on %s", st.Unit, st.MergeSha), got.refusals)
		return nil, failf(exitFindings, "certificate fetch: refused: story #%d's certificate on %s", st.Unit, st.MergeSha)
	}
	raw, err := checks.AttestationFromText(got.run.Text)
	if err != nil {
		return nil, failf(exitFindings, "certificate fetch: refused: %s: story #%d's certificate run %d: %w", attest.TokenStoryEnvelopeMissing, st.Unit, got.run.ID, err)
	}
	return raw, nil
}
