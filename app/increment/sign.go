package increment

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Attester stores a Sigstore bundle as an artifact attestation of the
// repository (gh.Installation).
type Attester interface {
	CreateAttestation(ctx context.Context, owner, repo string, bundle []byte) (int64, error)
}

// decide decides the milestone. Once it is complete, the certificate is
// drawn again with each story's signed unit envelope named by digest
// (envelopes): the stories' certificates are final by then, and nothing
// is read for a milestone still being built.
func (j *Judge) decide(ctx context.Context, in Input, g *gathered) (incrementrules.Verdict, error) {
	v := incrementrules.DecideWith(g.facts, j.rules())
	if !v.Complete() {
		return v, nil
	}
	env, err := j.envelopes(ctx, in, v.Certificate)
	if err != nil || len(env) == 0 {
		return v, err
	}
	g.facts.Envelopes = env
	return incrementrules.DecideWith(g.facts, j.rules()), nil
}

// envelopes reads, for each story of cert with a certificate, the App's
// aepgate/certificate run on its merge commit carrying that certificate
// (external_id sha256:<certificateSha256>) and returns the SHA-256 of the
// signed envelope in its text by merge commit. A story whose certificate
// run carries no envelope (signed by no key) is left out: the increment
// then names its certificate by digest only.
func (j *Judge) envelopes(ctx context.Context, in Input, cert []byte) (map[string]string, error) {
	var c incrementrules.Certificate
	if err := json.Unmarshal(cert, &c); err != nil {
		return nil, fmt.Errorf("increment certificate of %s/%s: %w", in.Owner, in.Repo, err)
	}
	out := map[string]string{}
	for _, s := range c.Stories {
		if s.CertificateSha256 == "" || s.MergeSha == "" {
			continue
		}
		runs, err := j.Src.AppCheckRuns(ctx, in.Owner, in.Repo, s.MergeSha, checks.NameCertificate)
		if err != nil {
			return nil, err
		}
		run := latest(runs, checks.CertificateExternalID(s.CertificateSha256))
		if run == nil {
			continue
		}
		raw, err := checks.AttestationFromText(run.Text)
		if err != nil {
			continue
		}
		d, err := attest.EnvelopeDigest(raw)
		if err != nil {
			j.Log.Warn("story certificate envelope unreadable; the increment names its certificate only", "unit", s.Unit, "merge_sha", s.MergeSha, "err", err)
			continue
		}
		out[s.MergeSha] = d
	}
	return out, nil
}

// signed returns run, the complete verdict's certificate run, with the
// increment certificate signed as an in-toto statement about the
// integrated commit in its text, and the Sigstore bundle to upload (nil
// when nothing was signed now). Without Signer, or before the milestone is
// complete, run is returned as it is. An envelope the App already wrote on
// the same certificate run (same summary) is kept rather than signed again,
// so an unchanged certificate is never rewritten. A signing failure is an
// error: a configured key that cannot sign is never skipped.
func (j *Judge) signed(in Input, v incrementrules.Verdict, run checks.Run, existing *snapshot.ExistingRun) (checks.Run, []byte, error) {
	if j.Signer == nil || !v.Complete() {
		return run, nil, nil
	}
	if existing != nil && existing.Summary == run.Summary {
		if _, err := checks.AttestationFromText(existing.Text); err == nil {
			run.Text = existing.Text
			return run, nil, nil
		}
	}
	env, err := attest.SignCertificate(j.Signer, attest.Increment, in.Owner+"/"+in.Repo, v.Certificate)
	if err != nil {
		return checks.Run{}, nil, fmt.Errorf("sign increment certificate of %s/%s milestone %d: %w", in.Owner, in.Repo, v.Milestone, err)
	}
	raw, err := json.Marshal(env)
	if err != nil {
		return checks.Run{}, nil, fmt.Errorf("sign increment certificate: %w", err)
	}
	bundle, err := json.Marshal(attest.NewBundle(env))
	if err != nil {
		return checks.Run{}, nil, fmt.Errorf("sign increment certificate: %w", err)
	}
	return checks.SignedIncrementCertificateRun(v.Candidate, v.Certificate, v.SHA256, raw, j.Signer.KeyID()), bundle, nil
}

// upload stores the signed increment certificate's bundle through GitHub's
// attestations API, best effort as for a unit's: the envelope is already
// on the check run, so a refusal or an error is logged and the
// certificate stands.
func (j *Judge) upload(ctx context.Context, in Input, v incrementrules.Verdict, bundle []byte) {
	if bundle == nil || j.Attest == nil {
		return
	}
	id, err := j.Attest.CreateAttestation(ctx, in.Owner, in.Repo, bundle)
	if err != nil {
		j.Log.Warn("increment attestation not uploaded; the signed envelope is on the check run", "milestone", v.Milestone, "candidate", v.Candidate, "err", err)
		return
	}
	j.Log.Info("increment attestation uploaded", "milestone", v.Milestone, "candidate", v.Candidate, "attestation_id", id)
}

// signedBy adds to a complete verdict's ledger body the key its
// certificate is signed by.
func (j *Judge) signedBy(body map[string]any, v incrementrules.Verdict) {
	if j.Signer != nil && v.Complete() {
		body["signed_by"] = j.Signer.KeyID()
	}
}
