package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/readfile"
)

// The variables that hold a secret itself, for deployments that inject
// secrets as variables rather than files (the *_FILE flags win).
const (
	envPrivateKey    = "AEPGATE_PRIVATE_KEY"
	envWebhookSecret = "AEPGATE_WEBHOOK_SECRET"
	envClientSecret  = "AEPGATE_CLIENT_SECRET"
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

// secretSource is one key or secret: the flag naming its file and the
// variable that may hold it instead.
type secretSource struct {
	flag, path, env string
}

// read is the secret from the file when one is named, else from the
// variable; with neither it is an error naming both. (A file readable by
// group or others is logged as a warning on log.)
func (src secretSource) read(ctx context.Context, o serveInputs) ([]byte, error) {
	if src.path != "" {
		return readSecretFile(ctx, o.log, src.flag, src.path)
	}
	v, ok := o.lookup(src.env)
	if !ok {
		return nil, fmt.Errorf("%s is required (or %s holding the secret itself)", src.flag, src.env)
	}
	v = strings.TrimSuffix(strings.TrimSuffix(v, "\n"), "\r")
	if strings.TrimSpace(v) == "" {
		return nil, fmt.Errorf("%s is set but empty", src.env)
	}
	return []byte(v), nil
}
