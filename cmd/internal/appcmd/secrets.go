package appcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/cmd/internal/cli"
)

// The variables that hold a secret itself, for deployments that inject
// secrets as variables rather than files (the *_FILE flags win).
const (
	envPrivateKey    = "AEPGATE_PRIVATE_KEY"
	envWebhookSecret = "AEPGATE_WEBHOOK_SECRET"
	envClientSecret  = "AEPGATE_CLIENT_SECRET"
)

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
		return cli.ReadSecretFile(ctx, o.log, src.flag, src.path)
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
