// Command aepgate enforces the Auditor/Executor delivery protocol: the CLI
// and the GitHub Action (aepgate action). Its commands are package
// cmd/internal/cli. The App's commands (serve, ledger, simulate, app) run
// the binary aepgate-app next to it (cmd/aepgate-app), which links the
// App's database, queue and metrics libraries, so that this one starts
// without initialising them. The demo is a binary of its own,
// cmd/aepgate-demo, so that neither links a fake GitHub.
package main

import (
	"os"

	"github.com/aepgate/aepgate/cmd/internal/cli"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); when it
// is not, the module's version from the build information is printed.
var version = ""

func main() { os.Exit(cli.Main(version, nil)) }
