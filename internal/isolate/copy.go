package isolate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// copyTree copies the directory src to dst: directories, regular files
// (with their permissions) and symlinks (as symlinks). Other files (sockets,
// devices) are skipped, and so is the directory skip (where the copies
// live, should it be inside src).
func copyTree(src, dst, skip string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == skip {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		err = mirror(path, filepath.Join(dst, rel))
		if errors.Is(err, errSpecial) {
			return nil
		}
		return err
	})
}

// placer makes top/rel in a worktree what src is.
type placer func(src, top, rel string) error

// placeInside is mirror kept inside top: a symlink the worktree holds where
// the original now has a folder (HEAD committed a link, the working tree
// replaced it) is replaced by a folder, and a path below a symlink is
// refused. Mirrored through such a link, a file would be removed and
// written wherever the link points, outside the copy.
func placeInside(src, top, rel string) error {
	dir := top
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if part == "." {
			break
		}
		dir = filepath.Join(dir, part)
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			linked, _ := filepath.Rel(top, dir)
			return fmt.Errorf("%q is a symlink in the copy; refusing to write through it", linked)
		}
	}
	dst := filepath.Join(top, rel)
	if fi, err := os.Lstat(src); err == nil && fi.IsDir() {
		if err := removeFile(dst); err != nil {
			return err
		}
	}
	return mirror(src, dst)
}

// mirror makes dst what src is: a copy of a regular file or a symlink, an
// empty directory, or nothing when src does not exist. A directory at src
// (a submodule, say) is created empty.
func mirror(src, dst string) error {
	fi, err := os.Lstat(src)
	if os.IsNotExist(err) {
		return removeFile(dst)
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	switch {
	case fi.IsDir():
		return os.MkdirAll(dst, fi.Mode().Perm()|0o700)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		if err := removeFile(dst); err != nil {
			return err
		}
		return os.Symlink(target, dst)
	case fi.Mode().IsRegular():
		if err := removeFile(dst); err != nil {
			return err
		}
		return copyRegular(src, dst, fi)
	}
	return errSpecial
}

// removeFile removes a file or symlink at path; a missing path is fine and
// a directory is left alone (its files are handled one by one).
func removeFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.IsDir() {
		return nil
	}
	return os.Remove(path)
}

func copyRegular(src, dst string, fi fs.FileInfo) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}
