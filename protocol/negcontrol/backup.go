package negcontrol

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// fingerprint identifies a file's content: its size and SHA-256.
type fingerprint struct {
	size int64
	sum  [sha256.Size]byte
	perm fs.FileMode // compared separately: see runner.restoreMode
}

// fingerprintOf reads a regular file (following symlinks); anything else,
// or an unreadable file, is an error.
func fingerprintOf(path string) (fingerprint, error) {
	f, err := os.Open(path)
	if err != nil {
		return fingerprint{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fingerprint{}, err
	}
	if !fi.Mode().IsRegular() {
		return fingerprint{}, fmt.Errorf("%s is not a regular file", path)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fingerprint{}, err
	}
	fp := fingerprint{size: n, perm: fi.Mode().Perm()}
	copy(fp.sum[:], h.Sum(nil))
	return fp, nil
}

// backup copies src, keeping its mode and modification time, into a fresh
// temporary directory under parent and returns the copy's path.
func backup(src, parent string) (string, error) {
	dir, err := os.MkdirTemp(parent, BackupPrefix)
	if err != nil {
		return "", fmt.Errorf("create backup directory: %w", err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := copyFile(src, dst); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dst, nil
}

// copyFile copies src over dst (creating dst's parent directories), then
// gives dst src's mode and modification time. A symlink at dst is followed,
// so a protected symlinked file stays a symlink. A leftover empty directory
// where the file belongs is removed; a non-empty one is an error.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if st, err := os.Stat(dst); err == nil && st.IsDir() {
		if err := os.Remove(dst); err != nil {
			return fmt.Errorf("%s is now a directory: %w", dst, err)
		}
	}
	_ = os.Chmod(dst, 0o600) // a break may have made it read-only; the mode is set below
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if err := os.Chmod(dst, fi.Mode().Perm()); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

// sameContent reports whether path is a regular file byte-identical (size
// and SHA-256) to want.
func sameContent(path string, want fingerprint) bool {
	got, err := fingerprintOf(path)
	return err == nil && got.size == want.size && got.sum == want.sum
}
