package review

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// DefaultBundleRules are the rules of the frozen evidence bundle
// (docs/audit.md), in the order their refusals are reported.
func DefaultBundleRules() []BundleRule {
	return []BundleRule{
		{Name: "file-limit", Bundle: FileLimit},
		{Name: "byte-limit", Bundle: ByteLimit},
		{Name: "cited-files-only", Bundle: CitedFilesOnly},
		{Name: "path", File: PathRule},
		{Name: "read", File: Read},
		{Name: "exists", File: Exists},
		{Name: "no-symlink", File: NoSymlink},
		{Name: "text", File: Text},
		{Name: "verbatim", Quote: Verbatim},
	}
}

// FileLimit refuses a review citing more than MaxBundleFiles files.
func FileLimit(cited []string, _ Bundle) string {
	if len(cited) > MaxBundleFiles {
		return fmt.Sprintf("the review cites %d files; at most %d are read for one review, so it is refused (never truncated): cite fewer files", len(cited), MaxBundleFiles)
	}
	return ""
}

// ByteLimit refuses a bundle of more than MaxBundleBytes.
func ByteLimit(_ []string, b Bundle) string {
	if n := b.bytes(); n > MaxBundleBytes {
		return fmt.Sprintf("the cited files hold %d bytes; at most %d (512 KB) are read for one review, so it is refused (never truncated): cite fewer or smaller files", n, MaxBundleBytes)
	}
	return ""
}

// CitedFilesOnly refuses a bundle holding a path twice or a file the
// review does not cite: the identity must cover what was judged and
// nothing else.
func CitedFilesOnly(cited []string, b Bundle) string {
	seen := map[string]bool{}
	want := map[string]bool{}
	for _, p := range cited {
		want[p] = true
	}
	for _, f := range b {
		switch {
		case seen[f.Path]:
			return fmt.Sprintf("the evidence bundle holds %q twice", f.Path)
		case !want[f.Path]:
			return fmt.Sprintf("the evidence bundle holds %q, which the review does not cite", f.Path)
		}
		seen[f.Path] = true
	}
	return ""
}

// PathRule refuses a path CheckPath refuses.
func PathRule(path string, _ *File) string {
	if err := CheckPath(path); err != nil {
		return err.Error()
	}
	return ""
}

// Read refuses a cited file the bundle lacks.
func Read(path string, f *File) string {
	if f == nil {
		return fmt.Sprintf("%q was not read at the audited commit", path)
	}
	return ""
}

// Exists refuses a file that is not there at the audited commit.
func Exists(path string, f *File) string {
	if f != nil && f.Missing {
		return fmt.Sprintf("%q does not exist at the audited commit", path)
	}
	return ""
}

// NoSymlink refuses a symbolic link: its target may lie anywhere.
func NoSymlink(path string, f *File) string {
	if f != nil && f.Symlink {
		return fmt.Sprintf("%q is a symbolic link at the audited commit; quote the file it points to", path)
	}
	return ""
}

// Text refuses a file that is not UTF-8 text without NUL bytes.
func Text(path string, f *File) string {
	switch {
	case f == nil:
		return ""
	case bytes.IndexByte(f.Content, 0) >= 0:
		return fmt.Sprintf("%q holds a NUL byte; binary files are not evidence", path)
	case !utf8.Valid(f.Content):
		return fmt.Sprintf("%q is not UTF-8 text", path)
	}
	return ""
}

// Verbatim refuses a quote that does not occur in the file as one
// contiguous run, byte for byte.
func Verbatim(e Evidence, _ *File, found bool) string {
	if !found {
		return fmt.Sprintf("does not occur verbatim in %q at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)", e.Path)
	}
	return ""
}
