package review

import "testing"

func TestCheckPath(t *testing.T) {
	ok := []string{"src/auth.go", "a", ".github/workflows/ci.yml", ".gitignore", "docs/env.md", "environment.go",
		"keys/public.go", "monkey.go", "go.sum", "internal/config/config.go", "pkg/.well-known/x", "é/ü.go", "x.keynote.md"}
	for _, p := range ok {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v; want nil", p, err)
		}
	}
	bad := map[string]string{
		"":                        "is empty",
		"/etc/passwd":             `"/etc/passwd" is absolute; evidence paths are relative to the repository root`,
		"../x":                    `"../x" leaves the repository (..)`,
		"a/../../x":               `"a/../../x" leaves the repository (..)`,
		"a/..":                    `"a/.." leaves the repository (..)`,
		"..":                      `".." leaves the repository (..)`,
		"./a":                     `"./a" is not in clean form (write a)`,
		"a//b":                    `"a//b" is not in clean form (write a/b)`,
		"a/":                      `"a/" is not in clean form (write a)`,
		".":                       `"." is not in clean form (write .)`,
		"a\\b":                    `"a\\b" holds a backslash; separate directories with /`,
		"a\nb":                    `"a\nb" holds control characters or is not UTF-8`,
		"a\x00b":                  `"a\x00b" holds control characters or is not UTF-8`,
		"\xff":                    `"\xff" holds control characters or is not UTF-8`,
		".git/config":             `".git/config" is a private or credential path (.git); evidence never quotes it`,
		"sub/.GIT/HEAD":           `"sub/.GIT/HEAD" is a private or credential path (.git); evidence never quotes it`,
		".env":                    `".env" is a private or credential path (.env*); evidence never quotes it`,
		"deploy/.env.production":  `"deploy/.env.production" is a private or credential path (.env*); evidence never quotes it`,
		".envrc":                  `".envrc" is a private or credential path (.env*); evidence never quotes it`,
		"config/prod.env":         `"config/prod.env" is a private or credential path (*.env); evidence never quotes it`,
		"home/.ssh/config":        `"home/.ssh/config" is a private or credential path (.ssh); evidence never quotes it`,
		".aws/credentials":        `".aws/credentials" is a private or credential path (.aws); evidence never quotes it`,
		".config/gh/hosts.yml":    `".config/gh/hosts.yml" is a private or credential path (.config); evidence never quotes it`,
		"certs/server.pem":        `"certs/server.pem" is a private or credential path (*.pem); evidence never quotes it`,
		"tls/Server.KEY":          `"tls/Server.KEY" is a private or credential path (*.key); evidence never quotes it`,
		"a/cert.p12":              `"a/cert.p12" is a private or credential path (*.p12); evidence never quotes it`,
		"gcp/credentials.json":    `"gcp/credentials.json" is a private or credential path (credentials.json); evidence never quotes it`,
		".netrc":                  `".netrc" is a private or credential path (.netrc); evidence never quotes it`,
		"web/.npmrc":              `"web/.npmrc" is a private or credential path (.npmrc); evidence never quotes it`,
		".pypirc":                 `".pypirc" is a private or credential path (.pypirc); evidence never quotes it`,
		"keys/id_rsa":             `"keys/id_rsa" is a private or credential path (id_rsa*); evidence never quotes it`,
		"keys/id_ed25519.pub":     `"keys/id_ed25519.pub" is a private or credential path (id_ed25519*); evidence never quotes it`,
		"infra/terraform.tfstate": `"infra/terraform.tfstate" is a private or credential path (*.tfstate); evidence never quotes it`,
		".docker/config.json":     `".docker/config.json" is a private or credential path (.docker); evidence never quotes it`,
		".git-credentials":        `".git-credentials" is a private or credential path (.git-credentials); evidence never quotes it`,
	}
	for p, want := range bad {
		err := CheckPath(p)
		if err == nil || err.Error() != want {
			t.Errorf("CheckPath(%q) = %v; want %s", p, err, want)
		}
	}
}
