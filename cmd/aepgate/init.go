package main

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
		name  string
		force bool
	)
	cmd := &cobra.Command{
		Use:   "init <dir>",
		Short: "Scaffold a new run: plan of record, execution guide, compliance log and annexes/",
		Long: `init creates <dir> (and its parents) with plan-of-record.md, execution-guide.md,
compliance-log.md and an annexes/ folder, written from aepgate's own templates.
Existing documents are kept unless --force is given. A fresh run lints clean and
shows two open items (P0-T1 and P0-G1, both PENDING).

Exit status: 0 on success, 2 when <dir> exists and is not a folder or a file
cannot be written.`,
		Example: "  aepgate init docs/my-run\n  aepgate init docs/my-run --name \"Ledger service\" --force",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInit(s, args[0], name, force)
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "project name for the documents' titles (default: the name of <dir>)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite documents that already exist")
	return cmd
}

func runInit(s streams, dir, name string, force bool) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return failf(2, "%s exists and is not a directory.", dir)
	}
	if name == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return failf(2, "resolve %s: %v", dir, err)
		}
		name = filepath.Base(abs)
	}
	files := scaffold.Render(name)
	// A document path taken by a folder (or a device) would fail half-way
	// through, after other documents were written: refuse before writing.
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
			return failf(2, "%s exists and is not a file.", path)
		}
	}
	annexes := filepath.Join(dir, filepath.FromSlash(filepath.Dir(scaffold.KeepPath)))
	if err := os.MkdirAll(annexes, 0o755); err != nil {
		return failf(2, "create %s: %v", annexes, err)
	}
	var skipped []string
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(path); err == nil && !force {
			skipped = append(skipped, path)
			continue
		}
		if err := writeAtomic(path, f.Content); err != nil {
			return failf(2, "write %s: %v", path, err)
		}
		fmt.Fprintf(s.out, "wrote  %s\n", path)
	}
	for _, path := range skipped {
		fmt.Fprintf(s.out, "skip   %s  (exists, use --force to overwrite)\n", path)
	}
	keep := filepath.Join(dir, filepath.FromSlash(scaffold.KeepPath))
	if err := createEmpty(keep); err != nil {
		return failf(2, "create %s: %v", keep, err)
	}
	fmt.Fprintf(s.out, "\n%s/ scaffolded. Read execution-guide.md's Rules of engagement first.\n", filepath.Clean(dir))
	return nil
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

// createEmpty creates an empty file unless something already exists there.
func createEmpty(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}
