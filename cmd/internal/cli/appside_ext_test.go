package cli_test

import (
	"github.com/aepgate/aepgate/cmd/internal/appcmd"
	"github.com/aepgate/aepgate/cmd/internal/cli"
)

func init() { cli.TestApp = appcmd.Side() }
