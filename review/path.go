package review

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// privateNames are file or directory names that hold credentials or other
// private data; a path with any of them as a segment (compared without
// case) is never read. ".git" covers the repository's own internals.
var privateNames = []string{
	".git", ".ssh", ".aws", ".config", ".gnupg", ".docker", ".kube", ".azure", ".gcloud",
	".terraform.d", ".password-store", ".vault-token", ".netrc", "_netrc", ".npmrc", ".yarnrc",
	".yarnrc.yml", ".pypirc", ".pgpass", ".my.cnf", ".git-credentials", ".htpasswd", ".boto",
	".s3cfg", ".dockercfg", ".terraformrc", ".m2", ".pki", "client_secret.json",
	"credentials", "credentials.json", "credentials.yml", "credentials.yaml", "credentials.xml",
	"secrets.json", "secrets.yml", "secrets.yaml", "token.json", "known_hosts", "authorized_keys",
}

// privatePrefixes start private names: .env, .env.local, .envrc; SSH keys.
var privatePrefixes = []string{".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}

// privateSuffixes end private names: keys, certificates with private
// parts, keystores, password databases, Terraform state and variables.
var privateSuffixes = []string{
	".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk", ".gpg", ".pgp",
	".asc", ".env", ".tfstate", ".tfstate.backup", ".tfvars", ".secret", ".secrets",
}

// CheckPath checks an evidence path: relative, in clean form ("a/b", not
// "./a", "a//b" or "a/"), no ".." segment, UTF-8 without control
// characters or backslashes, and no segment that names a private or
// credential file or directory (see privateNames, privatePrefixes and
// privateSuffixes). The error says which rule the path breaks.
func CheckPath(p string) error {
	switch {
	case p == "":
		return errors.New("is empty")
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("%q is absolute; evidence paths are relative to the repository root", p)
	case !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return fmt.Errorf("%q holds control characters or is not UTF-8", p)
	case strings.Contains(p, `\`):
		return fmt.Errorf("%q holds a backslash; separate directories with /", p)
	case p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/.."):
		return fmt.Errorf("%q leaves the repository (..)", p)
	case path.Clean(p) != p || p == ".":
		return fmt.Errorf("%q is not in clean form (write %s)", p, path.Clean(p))
	}
	for _, seg := range strings.Split(p, "/") {
		if why := private(strings.ToLower(seg)); why != "" {
			return fmt.Errorf("%q is a private or credential path (%s); evidence never quotes it", p, why)
		}
	}
	return nil
}

// private says which rule makes a lower-case path segment private, or "".
func private(seg string) string {
	for _, n := range privateNames {
		if seg == n {
			return n
		}
	}
	for _, pre := range privatePrefixes {
		if strings.HasPrefix(seg, pre) {
			return pre + "*"
		}
	}
	for _, suf := range privateSuffixes {
		if strings.HasSuffix(seg, suf) {
			return "*" + suf
		}
	}
	return ""
}
