package gh

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// maxTokenChars bounds a token file's content (craft-rules §2.1 step 3).
const maxTokenChars = 4096

// ErrTokenFile is wrapped by every ReadTokenFile error: the file is not a
// usable token file (github-auth-token-file-unavailable).
var ErrTokenFile = errors.New("token file unavailable")

// ReadTokenFile reads a GitHub token from path, which must be a regular
// file owned by the current user with no group or other permission bits
// (mode & 0o077 == 0), holding 1–4096 characters after trimming surrounding
// whitespace, with no NUL. The token is never put in an error.
func ReadTokenFile(path string) (string, error) {
	return readTokenFile(path, os.Getuid())
}

// readTokenFile is ReadTokenFile for a file that must belong to uid.
func readTokenFile(path string, uid int) (string, error) {
	if path == "" {
		return "", fmt.Errorf("%w: no --token-file given", ErrTokenFile)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrTokenFile, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%w: %s is not a regular file", ErrTokenFile, path)
	}
	if owner, ok := fileOwner(fi); !ok || owner != uid {
		return "", fmt.Errorf("%w: %s is not owned by you", ErrTokenFile, path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("%w: %s has mode %04o; run chmod 600 %s", ErrTokenFile, path, perm, path)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrTokenFile, err)
	}
	tok := strings.TrimSpace(string(raw))
	n := utf8.RuneCountInString(tok)
	switch {
	case n == 0:
		return "", fmt.Errorf("%w: %s is empty", ErrTokenFile, path)
	case n > maxTokenChars:
		return "", fmt.Errorf("%w: %s holds more than %d characters", ErrTokenFile, path, maxTokenChars)
	case strings.ContainsRune(tok, 0):
		return "", fmt.Errorf("%w: %s holds a NUL character", ErrTokenFile, path)
	}
	return tok, nil
}
