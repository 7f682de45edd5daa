package demo

import (
	"fmt"
	"strconv"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// IncrementView is the increment certificate the story fetched, as the
// report shows it.
type IncrementView struct {
	// Milestone is the increment's milestone number; SHA its integrated
	// commit, where aepgate/increment holds the certificate.
	Milestone int    `json:"milestone"`
	SHA       string `json:"sha"`
	// SHA256 is the canonical JSON's SHA-256, as the run's title and
	// external_id carry it; Certificate the canonical JSON itself.
	SHA256      string `json:"sha256"`
	Certificate string `json:"certificate"`
	// Command is the `aepgate certificate fetch --increment` command line
	// the demo ran and Fetch what it printed on stderr (both "" when the
	// demo ran without the binary's CLI).
	Command string `json:"command,omitempty"`
	Fetch   string `json:"fetch,omitempty"`
	// Bound is the certificate decoded: what it binds.
	Bound incrementrules.Certificate `json:"-"`
}

// verifyIncrement checks the newest aepgate/increment run on sha as
// `certificate fetch --increment` does: the run's layout, SHA-256, title,
// external_id, success, integrated commit and protocol/incrementrules's
// Validate, and that it certifies milestone. Who wrote it the caller
// checks (the fake records the App behind every run).
func verifyIncrement(r *ghfake.CheckRun, sha string, milestone int) (IncrementView, error) {
	if r == nil {
		return IncrementView{}, fmt.Errorf("no %s run on the integrated commit", checks.NameIncrement)
	}
	if r.AppID != appID {
		return IncrementView{}, fmt.Errorf("the %s run on the integrated commit was written by app %d, not the aepgate App", checks.NameIncrement, r.AppID)
	}
	cert, refused := checks.VerifyIncrementRun(checks.Run{Name: r.Name, HeadSHA: sha, ExternalID: r.ExternalID,
		Status: checks.Status(r.Status), Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary})
	if len(refused) > 0 {
		return IncrementView{}, fmt.Errorf("increment certificate refused: %v", refused)
	}
	if cert.Milestone != milestone {
		return IncrementView{}, fmt.Errorf("the increment certificate is of milestone %d, want %d", cert.Milestone, milestone)
	}
	raw, _, err := checks.IncrementFromSummary(r.Summary)
	if err != nil {
		return IncrementView{}, fmt.Errorf("increment certificate: %w", err)
	}
	return IncrementView{Milestone: milestone, SHA: sha, SHA256: certificate.FileFingerprint(raw), Certificate: string(raw), Bound: cert}, nil
}

// fetchIncrement reads the increment certificate back: `aepgate
// certificate fetch --increment` when the binary's CLI is given, else the
// same verification.
func (st *story) fetchIncrement() beat {
	n := func() string { return strconv.Itoa(st.s.milestone.Number()) }
	title := func() string {
		return "olivia runs aepgate certificate fetch --repo acme/widgets --sha <integrated> --increment " + n() + " --app-id " + strconv.Itoa(appID) + ": complete"
	}
	return beat{title: "olivia runs aepgate certificate fetch --increment on the integrated commit: complete",
		act: func() error {
			v, err := verifyIncrement(st.w.newest(st.integrated, checks.NameIncrement), st.integrated, st.s.milestone.Number())
			if err != nil {
				return err
			}
			if v.Fetch, err = st.fetchWithCLI([]byte(v.Certificate), "--sha", st.integrated, "--increment", n()); err != nil {
				return err
			}
			st.incCert = &v
			return nil
		},
		titled: title,
		detail: func() (string, error) {
			d := describeIncrement(*st.incCert)
			if st.incCert.Fetch != "" {
				d = st.incCert.Fetch + "\n" + d
			}
			return d, nil
		}}
}

// finalIncrement verifies, once the App is quiet, the increment
// certificate on the integrated commit the story reached (nil, nil when
// it reached none), with what `certificate fetch --increment` said.
func (w *world) finalIncrement() (*IncrementView, error) {
	st := w.story
	if st == nil || st.integrated == "" {
		return nil, nil
	}
	v, err := verifyIncrement(w.newest(st.integrated, checks.NameIncrement), st.integrated, st.s.milestone.Number())
	if err != nil {
		return nil, err
	}
	if st.incCert != nil && st.incCert.Fetch != "" {
		v.Fetch = st.incCert.Fetch
		v.Command = fmt.Sprintf("aepgate certificate fetch --repo %s --sha %s --increment %d --app-id %d", repoName, v.SHA, v.Milestone, appID)
	}
	return &v, nil
}
