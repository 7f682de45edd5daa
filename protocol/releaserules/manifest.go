package releaserules

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Manifest maps each path of a manifest.sha256 to its lowercase hex SHA-256.
type Manifest map[string]string

// Paths returns the manifest's paths, sorted.
func (m Manifest) Paths() []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var manifestLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{64})  (.+)$`) })

// ParseManifest reads a manifest.sha256 (§2.3): strict UTF-8, one line per
// file, each exactly "<64 lowercase hex><two spaces><path>", a final
// newline allowed but no blank line, every path safe and none repeated. An
// empty file is invalid. Any fault invalidates the whole manifest.
func ParseManifest(raw []byte) (Manifest, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("manifest: empty")
	}
	if !utf8.Valid(raw) {
		return nil, fmt.Errorf("manifest: not valid UTF-8")
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	m := Manifest{}
	for i, line := range lines {
		sub := manifestLine().FindStringSubmatch(line)
		if sub == nil {
			return nil, fmt.Errorf("manifest: line %d: expected \"<64 lowercase hex>  <path>\", got %q", i+1, clip(line))
		}
		if err := SafePath(sub[2]); err != nil {
			return nil, fmt.Errorf("manifest: line %d: %w", i+1, err)
		}
		if _, dup := m[sub[2]]; dup {
			return nil, fmt.Errorf("manifest: line %d: path %q repeated", i+1, sub[2])
		}
		m[sub[2]] = sub[1]
	}
	return m, nil
}

// SafePath checks a manifest path: non-empty, relative, already normalised
// POSIX (no "//", no trailing "/", no "." or ".." or empty segment), with no
// NUL, backslash or other control character.
func SafePath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty path")
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("path %q is absolute", clip(p))
	case strings.ContainsAny(p, "\\\x00"):
		return fmt.Errorf("path %q has a NUL or backslash", clip(p))
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("path %q has a control character", clip(p))
		}
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("path %q is not normalised (empty, . or .. segment)", clip(p))
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
