package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// scenario is one story the demo can play.
type scenario struct {
	about string
	// steps is how many steps it plays (for the progress indicator).
	steps int
	play  func(ctx context.Context, w *world) error
}

// scenarios are the demo's stories, by name.
var scenarios = map[string]scenario{
	"happy":   {about: "one increment from its first issue to its unit and increment certificates, a gated production deploy and a release", steps: 26, play: playHappy},
	"attacks": {about: "eight attacks on the gates, audit, readback, closure and deploy, each refused", steps: 21, play: playAttacks},
	"outage":  {about: "GitHub fails for a while; the App catches up and duplicates nothing", steps: 22, play: playOutage},
}

// Scenarios lists the scenario names in the order the help gives them.
func Scenarios() []string { return []string{"happy", "attacks", "outage"} }

// playBeats plays the beats in order, stopping at the first that fails.
func (st *story) playBeats(beats ...beat) error {
	for _, b := range beats {
		if err := st.w.rec.play(b); err != nil {
			return err
		}
	}
	return nil
}

// toPass is the story up to an independent PASS on the corrected head:
// increment, pull request, the Action, a contract change the owner
// approves, a HOLD, a coordinator's refused RESUME, the owner's RESUME,
// an audit FAIL and its correction.
func (st *story) toPass() []beat {
	return []beat{st.setup(), st.increment(), st.openPR(), st.action(), st.contractChange(),
		st.ownerApproves("olivia (owner) approves the pull request: the contract change is decided for this head"), st.hold(),
		st.commandRefused("cody (coordinator) comments '/aep resume': refused, only the owner lifts her HOLD", coord, 1, "/aep resume"),
		st.resume(), st.auditFail(), st.correction(), st.action(),
		st.ownerApproves("olivia approves the corrected head (an owner's approval binds to the commit it was given on)"),
		st.dispose(), st.auditPass()}
}

// playHappy is the whole delivery: to PASS, then merge, readback,
// certificate, certificate fetch; both stories closed and counted done,
// the demonstration, the increment certificate and its fetch; the gated
// deploy of the integrated commit, the release and the owner's board.
func playHappy(ctx context.Context, w *world) error {
	st := newStory(ctx, w)
	err := st.playBeats(append(st.toPass(), st.mergePR(), st.mainCI(), st.fetchCertificate(),
		st.closeCertified(), st.ownerClosesStory(), st.demonstrated(), st.fetchIncrement(),
		st.deployGated(), st.deployApproved(), st.release(), st.keepsBoard())...)
	st.expects = append(append(st.headExpects("PR head 3"), st.deliveredExpects()...), st.incrementExpects()...)
	return err
}

// fetchCertificate runs `aepgate certificate fetch` against the simulated
// GitHub (or, without the binary's CLI, the same verification).
func (st *story) fetchCertificate() beat {
	title := "olivia runs aepgate certificate fetch --repo acme/widgets --sha <merge> --app-id " + strconv.Itoa(appID) + ": certified"
	return beat{title: title,
		act: func() error {
			raw, err := verifyCertificate(st.w.newest(st.merge, "aepgate/certificate"))
			if err != nil {
				return err
			}
			st.certificate = raw
			st.fetchLog, err = st.fetchWithCLI(raw, "--sha", st.merge)
			return err
		},
		detail: func() (string, error) {
			d := "sha256:" + sum(string(st.certificate)) + " (" + strconv.Itoa(len(st.certificate)) + " bytes of canonical JSON)"
			if st.fetchLog != "" {
				d = st.fetchLog
			}
			return d, nil
		}}
}

// fetchWithCLI runs `aepgate certificate fetch` as olivia (a token file
// holding her token) on the commit and certificate args name (--sha and,
// for an increment, --increment) when the binary's CLI is given, requires
// it to print the certificate byte for byte and returns what it said on
// stderr ("" without the CLI).
func (st *story) fetchWithCLI(raw []byte, args ...string) (string, error) {
	if st.w.o.CLI == nil {
		return "", nil
	}
	tokenFile := filepath.Join(st.w.tmp, "reader.token")
	if err := os.WriteFile(tokenFile, []byte(st.w.f.UserToken(owner)), 0o600); err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	args = append([]string{"certificate", "fetch", "--repo", repoName}, args...)
	out, errOut, code := st.w.o.CLI(st.ctx, append(args, "--app-id", strconv.Itoa(appID), "--github-url", st.w.f.URL(), "--token-file", tokenFile))
	if code != 0 || out != string(raw) {
		return "", fmt.Errorf("%s exited %d (%s)", strings.Join(args[:2], " "), code, strings.TrimSpace(errOut))
	}
	return strings.TrimSpace(errOut), nil
}
