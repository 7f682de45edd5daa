package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

func newCertificateCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "certificate",
		Short: "Validate completion certificates, in files or on GitHub",
		Long: `Completion certificates bind an audited head, its CI runs, the merge and the
merged-main readback runs. validate and scan check certificate files with
craft-protocol's refusal tokens under aepgate's stricter rules; fetch reads
the certificate the aepgate App posted as the aepgate/certificate check run
on a merge commit and checks it the same way.`,
	}, newCertificateValidateCmd(s), newCertificateScanCmd(s), newCertificateFetchCmd(s), newCertificateVerifyCmd(s))
}

func newCertificateValidateCmd(s streams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "validate <file>",
		Short: "Check one certificate file",
		Long: `Prints {valid, errors, certificate} as JSON (--format text: one line, valid
or the refusal tokens): errors are refusal tokens, sorted and unique; what
each one expected and saw goes to stderr. Input that is not one non-empty
strict JSON object is ["invalid-json"], and so is a file that cannot be read
(missing, too large, not a regular file), with the reason on stderr. The file
is only read; "-" reads standard input. ` + inputLimits("A certificate", readfile.Certificate) + `.

Exit codes: 0 valid; 1 invalid; 2 unreadable or bad usage; 130 interrupted.`,
		Example: `  aepgate certificate validate completion-certificates/acme/pr-42.json
  aepgate certificate fetch --repo acme/app --sha "$SHA" --app-slug acme-aepgate | aepgate certificate validate -`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			res, unreadable, err := validateInput(c.Context(), s.in, args[0])
			if err != nil {
				return readFailed("certificate validate", err)
			}
			explainRefusals(s.err, shown(args[0]), res.Refusals)
			if err := writeValidation(s.out, format, shown(args[0]), res); err != nil {
				return failf(exitUsage, "certificate validate: %w", err)
			}
			switch {
			case unreadable:
				return exitCode(exitUsage)
			case !res.Valid:
				return exitCode(exitFindings)
			}
			return nil
		},
	}
	addFormatJSONFirst(cmd, &format)
	return cmd
}

// writeValidation prints one certificate's result: JSON, or a line.
func writeValidation(w io.Writer, format, where string, res certificate.Result) error {
	if format == formatJSON {
		return writeEvidenceJSON(w, res)
	}
	if res.Valid {
		_, err := fmt.Fprintf(w, "%s: valid\n", where)
		return err
	}
	_, err := fmt.Fprintf(w, "%s: invalid: %s\n", where, strings.Join(res.Errors, ", "))
	return err
}

// scanRow is one certificate in a scan report.
type scanRow struct {
	Path   string   `json:"path"`
	Valid  bool     `json:"valid"`
	Errors []string `json:"errors"`
}

// scanReport is the scan's output: healthy when every certificate is valid
// (an empty folder is healthy).
type scanReport struct {
	Healthy      bool      `json:"healthy"`
	Count        int       `json:"count"`
	Certificates []scanRow `json:"certificates"`
}

func newCertificateScanCmd(s streams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "scan <dir>",
		Short: "Check every <dir>/<project>/*.json certificate",
		Long: `Validates every file matching <dir>/*/*.json (a completion-certificates folder
with one sub-folder per project), in sorted order, and prints
{healthy, count, certificates:[{path, valid, errors}]} (--format text: one
line per certificate). An empty folder is healthy. A file that cannot be read
(over the ` + fmt.Sprint(readfile.Certificate.Max()>>20) + ` MB limit, not a regular file) is ["invalid-json"], with the
reason on stderr.

Exit codes: 0 healthy; 1 a certificate is invalid; 2 <dir> or a file in it
cannot be read; 130 interrupted.`,
		Example: `  aepgate certificate scan completion-certificates
  aepgate certificate scan completion-certificates --format text`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			rep, unreadable, err := scan(c.Context(), s.err, args[0])
			if err != nil {
				return readFailed("certificate scan", err)
			}
			if err := writeScan(s.out, format, rep); err != nil {
				return failf(exitUsage, "certificate scan: %w", err)
			}
			switch {
			case unreadable:
				return exitCode(exitUsage)
			case !rep.Healthy:
				return exitCode(exitFindings)
			}
			return nil
		},
	}
	addFormatJSONFirst(cmd, &format)
	return cmd
}

// writeScan prints a scan: JSON, or a line per certificate and a total.
func writeScan(w io.Writer, format string, rep scanReport) error {
	if format == formatJSON {
		return writeEvidenceJSON(w, rep)
	}
	bad := 0
	for _, row := range rep.Certificates {
		if err := writeValidation(w, formatText, shown(row.Path), certificate.Result{Valid: row.Valid, Errors: row.Errors}); err != nil {
			return err
		}
		if !row.Valid {
			bad++
		}
	}
	_, err := fmt.Fprintf(w, "%d certificates, %d invalid\n", rep.Count, bad)
	return err
}

// scan validates the certificates under dir; unreadable says whether a
// file could not be read.
func scan(ctx context.Context, stderr io.Writer, dir string) (rep scanReport, unreadable bool, err error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return scanReport{}, false, err
	}
	if !fi.IsDir() {
		return scanReport{}, false, fmt.Errorf("%s is not a directory", shown(dir))
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return scanReport{}, false, err
	}
	sort.Strings(paths)
	rep = scanReport{Healthy: true, Certificates: []scanRow{}}
	for _, p := range paths {
		row := scanRow{Path: p}
		res, bad, err := validateInput(ctx, nil, p)
		if err != nil {
			return scanReport{}, false, err
		}
		unreadable = unreadable || bad
		explainRefusals(stderr, shown(p), res.Refusals)
		row.Valid, row.Errors = res.Valid, res.Errors
		rep.Healthy = rep.Healthy && row.Valid
		rep.Certificates = append(rep.Certificates, row)
	}
	rep.Count = len(rep.Certificates)
	return rep, unreadable, nil
}

// explainRefusals writes one line per refusal for people: what was expected and
// what was seen.
func explainRefusals(w io.Writer, where string, rs []refusal.Refusal) {
	for _, r := range rs {
		fmt.Fprintf(w, "%s: %s\n", where, r)
	}
}

// writeEvidenceJSON prints v as indented JSON followed by a newline.
func writeEvidenceJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// validateInput validates the certificate at path ("-": stdin). A file
// that cannot be read is refused as invalid-json, the refusal saying why,
// so a missing file prints the same JSON as a malformed one; only an
// interrupted read is an error. unreadable says the file could not be
// read.
func validateInput(ctx context.Context, stdin io.Reader, path string) (res certificate.Result, unreadable bool, err error) {
	raw, err := readInput(ctx, stdin, path, readfile.Certificate)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return certificate.Result{}, false, err
	}
	if err != nil {
		var re *readfile.Error
		if errors.As(err, &re) {
			err = re.Err // the path is printed in front of the refusal
		}
		r := refusal.Refusal{Token: certificate.TokenInvalidJSON, Expected: "a readable certificate file", Seen: err.Error()}
		return certificate.Result{Errors: []string{certificate.TokenInvalidJSON}, Refusals: []refusal.Refusal{r}}, true, nil
	}
	return certificate.Validate(raw), false, nil
}
