package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"strings"

	"github.com/aepgate/aepgate/internal/readfile"
)

// lookupFunc finds an environment variable, as os.LookupEnv does.
type lookupFunc func(string) (string, bool)

// withEnvFile is lookup, then the KEY=VALUE lines of the env file at path
// ('aepgate app register' writes one): a variable set in the environment
// wins over the file. An empty path is lookup itself.
func withEnvFile(ctx context.Context, lookup lookupFunc, path string) (lookupFunc, error) {
	if path == "" {
		return lookup, nil
	}
	b, err := readfile.File(ctx, path, readfile.Secret)
	if err != nil {
		return nil, fmt.Errorf("--env-file: %w", err)
	}
	vars, err := parseEnvFile(string(b))
	if err != nil {
		return nil, fmt.Errorf("--env-file %s: %w", shown(path), err)
	}
	return func(name string) (string, bool) {
		if v, ok := lookup(name); ok {
			return v, true
		}
		v, ok := vars[name]
		return v, ok
	}, nil
}

// parseEnvFile reads KEY=VALUE lines; blank lines and lines starting with
// # are skipped, and a value in matching single or double quotes loses
// them. Any other line is an error naming it.
func parseEnvFile(s string) (map[string]string, error) {
	vars := map[string]string{}
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("line %d: want KEY=VALUE, got %q", i+1, line)
		}
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		vars[k] = v
	}
	return vars, nil
}

// readSecretFile reads a key or secret (a regular file of at most 1 MB,
// through internal/readfile), dropping one trailing newline. A file that
// group or others may read is logged as a warning: the secret is as safe
// as the file.
func readSecretFile(ctx context.Context, log *slog.Logger, flag, path string) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("%s is required", flag)
	}
	b, err := readfile.File(ctx, path, readfile.Secret)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if perm, loose := looseMode(path); loose {
		log.Warn("key or secret file is readable by group or others; chmod 600 it", "flag", flag, "path", path, "mode", perm.String())
	}
	b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s %s: the file is empty", flag, shown(path))
	}
	return b, nil
}

// looseMode reports whether the file at path grants group or others any
// permission (outside Windows, whose permission bits say nothing of it).
func looseMode(path string) (fs.FileMode, bool) {
	fi, err := os.Stat(path)
	if err != nil || runtime.GOOS == "windows" {
		return 0, false
	}
	return fi.Mode().Perm(), fi.Mode().Perm()&0o077 != 0
}
