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
	return &cobra.Command{
		Use:   "validate <file>",
		Short: "Check one certificate file",
		Long: `Prints {valid, errors, certificate} as JSON: errors are refusal tokens, sorted
and unique; what each one expected and saw goes to stderr. Input that is not
one non-empty strict JSON object is ["invalid-json"], and so is a file that
cannot be read (missing, too large, not a regular file), with the reason on
stderr. The file is only read; "-" reads standard input. ` + inputLimits("A certificate", readfile.Certificate) + `.

Exit codes: 0 valid; 2 invalid or unreadable; 130 interrupted.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			res, err := validateInput(c.Context(), s.in, args[0])
			if err != nil {
				return readFailed("certificate validate", err)
			}
			explainRefusals(s.err, shown(args[0]), res.Refusals)
			if err := writeEvidenceJSON(s.out, res); err != nil {
				return failf(2, "certificate validate: %w", err)
			}
			if !res.Valid {
				return exitCode(2)
			}
			return nil
		},
	}
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
	return &cobra.Command{
		Use:   "scan <dir>",
		Short: "Check every <dir>/<project>/*.json certificate",
		Long: `Validates every file matching <dir>/*/*.json (a completion-certificates folder
with one sub-folder per project), in sorted order, and prints
{healthy, count, certificates:[{path, valid, errors}]}. An empty folder is
healthy. A file that cannot be read (over the ` + fmt.Sprint(readfile.Certificate.Max()>>20) + ` MB limit, not a regular
file) is ["invalid-json"], with the reason on stderr.

Exit codes: 0 healthy; 2 otherwise (or when <dir> cannot be read); 130
interrupted.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			rep, err := scan(c.Context(), s.err, args[0])
			if err != nil {
				return readFailed("certificate scan", err)
			}
			if err := writeEvidenceJSON(s.out, rep); err != nil {
				return failf(2, "certificate scan: %w", err)
			}
			if !rep.Healthy {
				return exitCode(2)
			}
			return nil
		},
	}
}

func scan(ctx context.Context, stderr io.Writer, dir string) (scanReport, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return scanReport{}, err
	}
	if !fi.IsDir() {
		return scanReport{}, fmt.Errorf("%s is not a directory", shown(dir))
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return scanReport{}, err
	}
	sort.Strings(paths)
	rep := scanReport{Healthy: true, Certificates: []scanRow{}}
	for _, p := range paths {
		row := scanRow{Path: p}
		res, err := validateInput(ctx, nil, p)
		if err != nil {
			return scanReport{}, err
		}
		explainRefusals(stderr, shown(p), res.Refusals)
		row.Valid, row.Errors = res.Valid, res.Errors
		rep.Healthy = rep.Healthy && row.Valid
		rep.Certificates = append(rep.Certificates, row)
	}
	rep.Count = len(rep.Certificates)
	return rep, nil
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
// interrupted read is an error.
func validateInput(ctx context.Context, stdin io.Reader, path string) (certificate.Result, error) {
	raw, err := readInput(ctx, stdin, path, readfile.Certificate)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return certificate.Result{}, err
	}
	if err != nil {
		var re *readfile.Error
		if errors.As(err, &re) {
			err = re.Err // the path is printed in front of the refusal
		}
		r := refusal.Refusal{Token: certificate.TokenInvalidJSON, Expected: "a readable certificate file", Seen: err.Error()}
		return certificate.Result{Errors: []string{certificate.TokenInvalidJSON}, Refusals: []refusal.Refusal{r}}, nil
	}
	return certificate.Validate(raw), nil
}
