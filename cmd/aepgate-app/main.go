// Command aepgate-app is aepgate with the GitHub App: every command of
// aepgate, and serve, ledger, simulate and app, which link the App's
// database, queue and metrics libraries (package cmd/internal/appcmd).
// aepgate runs this binary, found next to it, for those commands; the
// image runs it for serve.
package main

import (
	"os"

	"github.com/aepgate/aepgate/cmd/internal/appcmd"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"), as in
// cmd/aepgate.
var version = ""

func main() { os.Exit(appcmd.Main(version)) }
