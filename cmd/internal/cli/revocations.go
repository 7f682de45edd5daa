package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/attest"
)

// revocationsFlagUsage is the --revocations flag's help, shared by the
// commands that verify signatures.
const revocationsFlagUsage = "the App's signed revocation list (GET /.well-known/aepgate/revocations), verified with the trusted keys: a signature by a key it names is refused with the revocation's date and reason"

// revocationsRefused is a --revocations file that was read but does not
// verify (tampered, signed by an untrusted key, malformed): not verified,
// exit 1, never ignored.
type revocationsRefused struct{ err error }

func (e *revocationsRefused) Error() string { return e.err.Error() }
func (e *revocationsRefused) Unwrap() error { return e.err }

// withRevocations returns ring knowing the revocations of the signed list
// at path (ring itself when path is ""). The list must verify against
// ring (attest.VerifyRevocations); a list that does not is a
// *revocationsRefused, an unreadable file a plain error.
func withRevocations(ctx context.Context, ring attest.Keyring, path string) (attest.Keyring, error) {
	if path == "" {
		return ring, nil
	}
	raw, err := readfile.File(ctx, path, readfile.Config)
	if err != nil {
		return nil, fmt.Errorf("--revocations: %w", err)
	}
	revs, _, err := attest.VerifyRevocations(raw, ring)
	var r *attest.Refused
	if errors.As(err, &r) {
		return nil, &revocationsRefused{fmt.Errorf("--revocations %s: the revocation list is refused: %w", shown(path), err)}
	}
	if err != nil {
		return nil, fmt.Errorf("--revocations %s: %w", shown(path), err)
	}
	return ring.Revoke(revs), nil
}

// trustFailed ends a command whose keys or revocation list could not be
// used: exit 1 for a refused revocation list, else as readFailed.
func trustFailed(prefix string, err error) error {
	var rr *revocationsRefused
	if errors.As(err, &rr) {
		return failf(exitFindings, "%s: not verified: %w", prefix, err)
	}
	return readFailed(prefix, err)
}
