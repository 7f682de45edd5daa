package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aepgate/aepgate/internal/store"
)

// TimelineVersion is the version of timeline.json's shape.
const TimelineVersion = 1

// Result is what a demo run did, as timeline.json holds it.
type Result struct {
	Version  int    `json:"version"`
	Scenario string `json:"scenario"`
	Speed    string `json:"speed"`
	// Steps is the timeline, one entry per step played.
	Steps []Step `json:"steps"`
	// Commits are the commits the story watched, with the check runs on
	// each as GitHub shows them (the newest run per name).
	Commits []CommitRuns `json:"commits"`
	// Ledger is the App's ledger and `ledger verify`'s verdict on it.
	Ledger Ledger `json:"ledger"`
	// Certificate is the canonical certificate JSON ("" when none).
	Certificate string `json:"certificate,omitempty"`
	// Increment is the increment certificate on the integrated commit
	// (nil when the story reached none).
	Increment *IncrementView `json:"increment,omitempty"`
	// Attestation is the signed certificate and its offline verification
	// (nil when the merge has no certificate).
	Attestation *Attestation `json:"attestation,omitempty"`
	// IncrementAttestation is the signed increment certificate on the
	// integrated commit verified offline with its story envelopes (nil
	// when the story reached no integrated commit).
	IncrementAttestation *Attestation `json:"incrementAttestation,omitempty"`
	// Board is the owner's board issue the App keeps (nil when none).
	Board   *BoardView `json:"board,omitempty"`
	Figures Figures    `json:"figures"`
	// Problems lists every way the final state differs from what the
	// scenario must end with; empty when the demo ran as it should.
	Problems []string `json:"problems"`
}

// CommitRuns are the check runs on one commit.
type CommitRuns struct {
	Label string    `json:"label"`
	SHA   string    `json:"sha"`
	Runs  []RunView `json:"runs"`
}

// RunView is a check run as a user sees it on GitHub.
type RunView struct {
	ID          int64        `json:"id"`
	Name        string       `json:"name"`
	By          string       `json:"by"` // "aepgate App" or "GitHub Actions"
	Status      string       `json:"status"`
	Conclusion  string       `json:"conclusion"`
	Title       string       `json:"title"`
	Summary     string       `json:"summary"`
	Annotations []Annotation `json:"annotations"`
	// Versions counts the runs of this name on the commit: more than one
	// when the App replaced a run whose annotations changed (GitHub cannot
	// remove annotations, so the App writes a fresh run instead).
	Versions int `json:"versions"`
}

// Annotation is one annotation of a check run.
type Annotation struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Level   string `json:"level"`
	Title   string `json:"title,omitempty"`
	Message string `json:"message"`
}

// Ledger is the App's ledger after the run.
type Ledger struct {
	Intact  bool        `json:"intact"`
	Verdict string      `json:"verdict"` // what `ledger verify` printed
	Head    string      `json:"head"`
	Rows    []LedgerRow `json:"rows"`
}

// LedgerRow is one ledger row.
type LedgerRow struct {
	Seq     int64  `json:"seq"`
	Kind    string `json:"kind"`
	Subject string `json:"subject"`
	Hash    string `json:"hash"`
}

// finish waits until the App is quiet and stops it, then gathers the
// check runs, the board, the ledger, the figures and the final-state
// problems.
func (w *world) finish(ctx context.Context, wall time.Duration) *Result {
	res := &Result{Version: TimelineVersion, Scenario: w.o.Scenario, Speed: string(w.o.Speed),
		Steps: append([]Step{}, w.rec.steps...), Problems: []string{}}
	if err := w.awaitQuiet(ctx); err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	res.Figures = w.figures(wall)
	res.Commits = w.commitRuns()
	res.Board = w.board()
	w.attestations(ctx, res)
	if err := w.stopApp(); err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	ledger, err := w.ledger(ctx)
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	if ledger.Rows == nil {
		ledger.Rows = []LedgerRow{}
	}
	res.Ledger = ledger
	var certErr error
	if st := w.story; st != nil && st.merge != "" {
		var raw []byte
		raw, certErr = verifyCertificate(w.newest(st.merge, "aepgate/certificate"))
		res.Certificate = string(raw)
	}
	if res.Increment, err = w.finalIncrement(); err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	res.Problems = append(res.Problems, w.problems(res, certErr)...)
	if err := copyFile(w.logFile.Name(), filepath.Join(w.o.Out, "app.log")); err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	return res
}

// ledger reads the App's ledger and verifies its chain, through `ledger
// verify` when the binary's CLI is given and the store otherwise.
func (w *world) ledger(ctx context.Context) (Ledger, error) {
	db, err := store.Open(ctx, "sqlite:"+w.dbPath)
	if err != nil {
		return Ledger{}, fmt.Errorf("demo: open the ledger: %w", err)
	}
	defer db.Close()
	v, err := db.VerifyLedger(ctx)
	if err != nil {
		return Ledger{}, fmt.Errorf("demo: verify the ledger: %w", err)
	}
	l := Ledger{Intact: v.OK(), Head: v.Head, Verdict: fmt.Sprintf("ledger intact: %d rows, head %s", v.Rows, v.Head)}
	if !v.OK() {
		l.Verdict = fmt.Sprintf("ledger broken at row %d: %s (%d rows read)", v.BadSeq, v.Problem, v.Rows)
	}
	if w.o.CLI != nil {
		args, shown := []string{"ledger", "verify", "--database", "sqlite:" + w.dbPath}, "$ aepgate ledger verify"
		if w.keysFile != "" {
			args, shown = append(args, "--jwks", w.keysFile), shown+" --jwks keys.jwks"
		}
		out, errOut, code := w.o.CLI(ctx, args)
		l.Verdict = shown + "\n" + out + errOut
		l.Intact = l.Intact && code == 0
	}
	l.Rows, err = ledgerRows(ctx, db)
	return l, err
}

// ledgerRows reads every ledger row, oldest first.
func ledgerRows(ctx context.Context, db *store.DB) ([]LedgerRow, error) {
	rows, err := db.SQL.QueryContext(ctx, `SELECT seq, kind, subject, hash FROM aepgate_ledger ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("demo: read the ledger: %w", err)
	}
	defer rows.Close()
	var out []LedgerRow
	for rows.Next() {
		var r LedgerRow
		if err := rows.Scan(&r.Seq, &r.Kind, &r.Subject, &r.Hash); err != nil {
			return nil, fmt.Errorf("demo: read the ledger: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("demo: copy %s: %w", from, err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		return fmt.Errorf("demo: copy %s: %w", from, err)
	}
	return nil
}

// attestations verifies offline, while the App still serves its keys, the
// signed certificate on the story's merge commit and the signed increment
// certificate on its integrated commit, each refusal a problem of res.
func (w *world) attestations(ctx context.Context, res *Result) {
	st := w.story
	if st == nil {
		return
	}
	check := func(what string, a *Attestation, err error) *Attestation {
		if err != nil {
			res.Problems = append(res.Problems, err.Error())
		} else if a != nil && !a.Verified {
			res.Problems = append(res.Problems, "the signed "+what+" did not verify offline: "+strings.TrimSpace(a.Output))
		}
		return a
	}
	if st.merge != "" {
		a, err := w.attestation(ctx, st.merge)
		res.Attestation = check("certificate", a, err)
	}
	if st.integrated != "" {
		a, err := w.incrementAttestation(ctx, st.integrated)
		res.IncrementAttestation = check("increment certificate", a, err)
	}
}
