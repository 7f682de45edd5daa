// Command aepgate enforces the Auditor/Executor delivery protocol: the CLI,
// the GitHub Action (aepgate action) and the GitHub App (aepgate serve) are
// one binary. Its commands are package cmd/internal/cli. The demo is a binary
// of its own, cmd/aepgate-demo, so that this one links no fake GitHub.
package main

import (
	"os"

	"github.com/aepgate/aepgate/cmd/internal/cli"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); when it
// is not, the module's version from the build information is printed.
var version = ""

func main() { os.Exit(cli.Main(version)) }
