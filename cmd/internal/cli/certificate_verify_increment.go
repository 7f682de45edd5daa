package cli

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/attest"
)

// incrementVerifyReport is what certificate verify prints for a verified
// increment envelope: the unit report with the story envelopes checked.
type incrementVerifyReport struct {
	verifyReport
	Stories []attest.VerifiedStory `json:"stories"`
}

// incrementVerify verifies an increment envelope with the story envelopes
// given with --story.
func incrementVerify(s streams, env []byte, ring attest.Keyring, want verifyWant, stories [][]byte) error {
	v, err := attest.VerifyIncrement(env, ring, want.Want, stories)
	if err != nil {
		return verifyRefused(s, err)
	}
	rep := incrementVerifyReport{verifyReport: verifyReport{Verified: true, PredicateType: attest.IncrementPredicateType, KeyID: v.KeyID,
		Subject: v.Subject, Repository: v.Repository, Fingerprint: v.Fingerprint, Certificate: v.Certificate, Unchecked: want.unchecked(s, v.Repository)}, Stories: v.Stories}
	if rep.Stories == nil {
		rep.Stories = []attest.VerifiedStory{}
	}
	if err := writeEvidenceJSON(s.out, rep); err != nil {
		return failf(2, "certificate verify: %w", err)
	}
	return nil
}

// readStories reads each --story file.
func readStories(ctx context.Context, paths []string) ([][]byte, error) {
	var out [][]byte
	for _, p := range paths {
		raw, err := readfile.File(ctx, p, readfile.Certificate)
		if err != nil {
			return nil, fmt.Errorf("--story: %w", err)
		}
		out = append(out, raw)
	}
	return out, nil
}
