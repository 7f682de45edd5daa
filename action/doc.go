// Package action is the GitHub Action driver behind `aepgate action`. It
// reads the step's inputs and event through go-githubactions (with an
// injected getenv and writer), runs the protocol checks on the runner host
// (lint and status of the run folders, the declared negative controls, the
// worker report in the pull request body), and reports them as the check
// runs aep/lint, aep/status, aep/negative-controls and aep/report on the
// head commit. When the token may not write checks (a fork's pull request,
// a read-only token) it says so once and reports through workflow
// annotations and the job summary instead. Outputs are written to
// $GITHUB_OUTPUT with a random delimiter. It reaches GitHub only through
// the interfaces it declares (Publisher, FileReader, ReleaseVerifier),
// which gh.ActionClient implements and a Connector opens per token.
package action
