package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/protocol/scaffold"
)

func newInitCmd(s streams) *cobra.Command {
	var (
		name, format string
		force        bool
	)
	cmd := &cobra.Command{
		Use:   "init <dir>",
		Short: "Scaffold a new run: plan of record, execution guide, compliance log and annexes/",
		Long: `init creates <dir> (and its parents) with plan-of-record.md, execution-guide.md,
compliance-log.md and an annexes/ folder, written from aepgate's own templates.
It prints "wrote  <path>" for each file written (annexes/.gitkeep included) and
"skip   <path>" for each document kept. Existing documents are kept unless
--force is given; when every file already exists, it says nothing was written.
A fresh run lints clean and shows two open items (P0-T1 and P0-G1, both
PENDING).

--format json prints {dir, wrote, skipped} (paths) instead.

Exit codes: 0 on success (also when nothing needed writing); 2 when <dir>
exists and is not a folder or a file cannot be written.`,
		Example: "  aepgate init docs/my-run\n  aepgate init docs/my-run --name \"Ledger service\" --force",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInit(s, args[0], name, force, format)
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "project name for the documents' titles (default: the name of <dir>)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite documents that already exist")
	addFormat(cmd, &format)
	return cmd
}

func runInit(s streams, dir, name string, force bool, format string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return failf(2, "%s exists and is not a directory.", shown(dir))
	}
	if name == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return failf(2, "resolve %s: %v", shown(dir), err)
		}
		name = filepath.Base(abs)
	}
	files := scaffold.Render(name)
	// A document path taken by a folder (or a device) would fail half-way
	// through, after other documents were written: refuse before writing.
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
			return failf(2, "%s exists and is not a file.", shown(path))
		}
	}
	wrote, skipped, err := writeScaffold(dir, files, force)
	if err != nil {
		return err
	}
	if format == formatJSON {
		return writeJSON(s.out, map[string]any{"dir": filepath.Clean(dir), "wrote": nonNil(wrote), "skipped": nonNil(skipped)})
	}
	for _, path := range wrote {
		fmt.Fprintf(s.out, "wrote  %s\n", shown(path))
	}
	for _, path := range skipped {
		fmt.Fprintf(s.out, "skip   %s  (exists, use --force to overwrite)\n", shown(path))
	}
	if len(wrote) == 0 {
		fmt.Fprintf(s.out, "\nNothing was written: %s/ already holds every file (use --force to overwrite the documents).\n", shown(filepath.Clean(dir)))
		return nil
	}
	fmt.Fprintf(s.out, "\n%s/ scaffolded. Read execution-guide.md's Rules of engagement first.\n", shown(filepath.Clean(dir)))
	return nil
}

// writeScaffold writes the documents (existing ones only with force) and
// annexes/.gitkeep (only when missing), and returns the paths it wrote and
// the documents it skipped.
func writeScaffold(dir string, files []scaffold.File, force bool) ([]string, []string, error) {
	annexes := filepath.Join(dir, filepath.FromSlash(filepath.Dir(scaffold.KeepPath)))
	if err := os.MkdirAll(annexes, 0o755); err != nil {
		return nil, nil, failf(exitUsage, "create %s: %v", shown(annexes), err)
	}
	var wrote, skipped []string
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(path); err == nil && !force {
			skipped = append(skipped, path)
			continue
		}
		if err := writeAtomic(path, f.Content); err != nil {
			return nil, nil, failf(exitUsage, "write %s: %v", shown(path), err)
		}
		wrote = append(wrote, path)
	}
	keep := filepath.Join(dir, filepath.FromSlash(scaffold.KeepPath))
	created, err := createEmpty(keep)
	if err != nil {
		return nil, nil, failf(exitUsage, "create %s: %v", shown(keep), err)
	}
	if created {
		wrote = append(wrote, keep)
	}
	return wrote, skipped, nil
}

// nonNil is list, or an empty list for JSON's [] rather than null.
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// writeAtomic writes b to path through a temporary file in the same folder,
// so an interrupted init never leaves a half-written document.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// createEmpty creates an empty file unless something already exists
// there, and reports whether it did.
func createEmpty(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, f.Close()
}
