package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// incrementAttestation saves the signed increment certificate on the
// integrated commit and the story envelopes it names beside the report,
// then verifies them offline with the App's published keys: with
// `aepgate certificate verify --story` when the binary's CLI is given,
// else with protocol/attest. nil when the commit has no increment run. It
// needs the App still serving.
func (w *world) incrementAttestation(ctx context.Context, integrated string) (*Attestation, error) {
	r := w.newest(integrated, checks.NameIncrement)
	if r == nil || r.Conclusion != "success" {
		return nil, nil
	}
	env, err := checks.AttestationFromText(r.Text)
	if err != nil {
		return nil, fmt.Errorf("demo: the increment certificate run is not signed: %w", err)
	}
	raw, _, err := checks.IncrementFromSummary(r.Summary)
	if err != nil {
		return nil, fmt.Errorf("demo: increment certificate: %w", err)
	}
	var c incrementrules.Certificate
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("demo: increment certificate: %w", err)
	}
	saved, err := w.saveEvidence(ctx, "increment.dsse.json", env)
	if err != nil {
		return nil, err
	}
	args := []string{"certificate", "verify", saved.envFile, "--jwks", saved.keysFile, "--revocations", saved.revFile, "--repo", repoName, "--sha", integrated}
	a := &Attestation{Envelope: string(env), Command: "aepgate certificate verify increment.dsse.json --jwks keys.jwks --revocations revocations.json --repo " + repoName + " --sha " + integrated}
	stories, err := w.saveStories(c, &args, a)
	if err != nil {
		return nil, err
	}
	if w.o.CLI != nil {
		out, errOut, code := w.o.CLI(ctx, args)
		a.Output, a.Verified = out+errOut, code == 0
		return a, nil
	}
	ring, err := trusted(saved.keys, saved.revs)
	if err != nil {
		return nil, err
	}
	v, err := attest.VerifyIncrement(env, ring, attest.Want{SHA: integrated, Repository: repoName}, stories)
	if err != nil {
		a.Output = err.Error()
		return a, nil
	}
	a.Output = fmt.Sprintf("verified: key %s, subject %s, sha256 %s, %d story envelopes\n", v.KeyID, v.SHA, v.Fingerprint, len(v.Stories))
	a.Verified = true
	return a, nil
}

// saveStories saves beside the report each story envelope c names,
// adding a --story to args and to a's command line for each.
func (w *world) saveStories(c incrementrules.Certificate, args *[]string, a *Attestation) ([][]byte, error) {
	var stories [][]byte
	for _, s := range c.Stories {
		if s.EnvelopeSha256 == "" {
			continue
		}
		story, err := w.storyEnvelope(s)
		if err != nil {
			return nil, err
		}
		name := "unit-" + strconv.Itoa(s.Unit) + ".dsse.json"
		if err := os.WriteFile(filepath.Join(w.o.Out, name), append(story, '\n'), 0o644); err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		*args, a.Command = append(*args, "--story", filepath.Join(w.o.Out, name)), a.Command+" --story "+name
		stories = append(stories, story)
	}
	return stories, nil
}

// storyEnvelope is the signed envelope on the App's certificate run of
// story s's merge commit.
func (w *world) storyEnvelope(s incrementrules.CertStory) ([]byte, error) {
	r := w.newest(s.MergeSha, checks.NameCertificate)
	if r == nil {
		return nil, fmt.Errorf("demo: no %s on story #%d's merge commit %s", checks.NameCertificate, s.Unit, s.MergeSha)
	}
	env, err := checks.AttestationFromText(r.Text)
	if err != nil {
		return nil, fmt.Errorf("demo: story #%d's certificate run is not signed: %w", s.Unit, err)
	}
	return env, nil
}
