package config

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Ref names a base policy file: a repository and a path in it. The base is
// always read from that repository's default branch, so a Ref names no
// branch, tag or commit.
type Ref struct {
	Owner, Repo, Path string
}

// String is the Ref as written in a config file: "OWNER/REPO:PATH".
func (r Ref) String() string { return r.Owner + "/" + r.Repo + ":" + r.Path }

// refShape is the form every extends value takes, for error messages.
const refShape = `OWNER/REPO:PATH, like "acme/.github:aepgate.yml"`

// ParseRef parses an extends value, "OWNER/REPO:PATH". OWNER is a GitHub
// login, REPO a repository name, PATH a repository-relative file path
// (the rules of checkPath, no glob). A "@REF" suffix is refused: the base is
// always read from its repository's default branch.
func ParseRef(s string) (Ref, error) {
	repo, p, ok := strings.Cut(s, ":")
	if !ok {
		return Ref{}, fmt.Errorf("%q must be %s", s, refShape)
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok {
		return Ref{}, fmt.Errorf("%q must be %s: %q names no repository", s, refShape, repo)
	}
	if strings.Contains(p, "@") {
		return Ref{}, fmt.Errorf("%q names a ref; the base is always read from its repository's default branch, so write it without \"@...\"", s)
	}
	if msg := checkLogin(owner, false); msg != "" {
		return Ref{}, fmt.Errorf("%q: owner %s", s, msg)
	}
	if msg := checkRepoName(name); msg != "" {
		return Ref{}, fmt.Errorf("%q: repository %s", s, msg)
	}
	if msg := checkRefPath(p); msg != "" {
		return Ref{}, fmt.Errorf("%q: path %s", s, msg)
	}
	return Ref{Owner: owner, Repo: name, Path: p}, nil
}

// checkRepoName validates a repository name: 1-100 letters, digits, '.',
// '_' or '-', and neither "." nor "..".
func checkRepoName(s string) string {
	if s == "" || len(s) > 100 || s == "." || s == ".." {
		return fmt.Sprintf("%q is not a repository name (1-100 letters, digits, '.', '_' or '-')", s)
	}
	for _, r := range s {
		if !isAlnum(r) && r != '.' && r != '_' && r != '-' {
			return fmt.Sprintf("%q is not a repository name (1-100 letters, digits, '.', '_' or '-')", s)
		}
	}
	return ""
}

// checkRefPath validates the file path of a Ref: a repository path
// (checkPath) with no empty or "." segment.
func checkRefPath(p string) string {
	if msg := checkPath(p, false); msg != "" {
		return msg
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." {
			return fmt.Sprintf("%q must be a file's path, with no empty or '.' segment", p)
		}
	}
	return ""
}

// extends decodes the extends key: a Ref, kept as written.
func (d *decoder) extends(v *yaml.Node, field string) string {
	s, ok := d.str(v, field)
	if !ok {
		return ""
	}
	if _, err := ParseRef(s); err != nil {
		d.errorf(v, field, "%s", err)
	}
	return s
}

// ErrNoBase is the error of resolving a file that extends a base without
// the base: the caller reads it first (the App through its installation,
// the CLI from --base or --repo).
var ErrNoBase = errors.New("the base policy was not read")
