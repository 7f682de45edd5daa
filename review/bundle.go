package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// Limits of the frozen evidence bundle: at most MaxBundleFiles distinct
// files and MaxBundleBytes in total are read for one review. A review
// citing more is refused, never truncated.
const (
	MaxBundleFiles = 64
	MaxBundleBytes = 512 << 10
)

// File is one cited file as read at the audited commit.
type File struct {
	Path    string
	Content []byte
	// Symlink is set when the path is a symbolic link there (Content is
	// then the link's target).
	Symlink bool
	// Missing is set when there is no such file there.
	Missing bool
}

// Bundle is the frozen evidence bundle of one review: the files its
// evidence cites, read at its commit_id.
type Bundle []File

// Identity is the bundle's identity, recorded with the verdict so that a
// later reader can tell exactly what was judged: the hex SHA-256 of the
// listing that has, for each file in byte order of its path, the line
//
//	<hex SHA-256 of the content>  <path>\n
//
// (the format of sha256sum's output). A missing file's content is empty;
// CheckBundle refuses bundles with missing files, symbolic links or paths
// holding line breaks, so the identity of a checked bundle covers exactly
// its files' contents. The identity of an empty bundle is the SHA-256 of
// the empty string.
func (b Bundle) Identity() string {
	files := slices.Clone(b)
	slices.SortStableFunc(files, func(x, y File) int { return strings.Compare(x.Path, y.Path) })
	h := sha256.New()
	for _, f := range files {
		sum := sha256.Sum256(f.Content)
		h.Write([]byte(hex.EncodeToString(sum[:]) + "  " + f.Path + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// bytes is the total size of the files' contents.
func (b Bundle) bytes() int {
	n := 0
	for _, f := range b {
		n += len(f.Content)
	}
	return n
}

// Location is where a quote was found: a file and its 1-based, inclusive
// lines.
type Location struct {
	Path               string
	StartLine, EndLine int
}

// Locate finds the first occurrence of quote in content, byte for byte (no
// whitespace or line-ending normalisation), and returns the 1-based lines
// of its first and last byte; lines end at "\n". An empty quote is never
// found.
func Locate(content []byte, quote string) (startLine, endLine int, ok bool) {
	if quote == "" {
		return 0, 0, false
	}
	i := bytes.Index(content, []byte(quote))
	if i < 0 {
		return 0, 0, false
	}
	startLine = 1 + bytes.Count(content[:i], nl)
	endLine = startLine + strings.Count(quote[:len(quote)-1], "\n")
	return startLine, endLine, true
}

var nl = []byte{'\n'}
