package cli

import (
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionInfo is what "aepgate version --json" prints. Fields the binary
// was built without (no build information, no VCS stamp) are left out.
type versionInfo struct {
	Version     string `json:"version"`
	GoVersion   string `json:"go_version,omitempty"`
	Module      string `json:"module,omitempty"`
	VCSRevision string `json:"vcs_revision,omitempty"`
	VCSModified *bool  `json:"vcs_modified,omitempty"`
}

func newVersionCmd(s streams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print aepgate's version (with --json, also how it was built)",
		Long: `version prints "aepgate <version>", the same line as --version. The version
is the one set at link time (-ldflags "-X main.version=v1.2.3"), else the
module version Go recorded in the build information, else "devel".
With --format json (or --json) it prints one object instead: version, go_version (the Go
toolchain that built the binary), module (its module path), vcs_revision
(the commit it was built from) and vcs_modified (true when the working tree
had uncommitted changes). The last four come from the build information Go
embeds in the binary and are left out when the build did not record them
(test binaries and builds with -buildvcs=false carry no VCS stamp).

Exit codes: 0 always, but 2 for a bad flag.`,
		Example: `  aepgate version
  aepgate version --format json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if format != formatJSON {
				fmt.Fprintf(s.out, "aepgate %s\n", s.version)
				return nil
			}
			bi, _ := debug.ReadBuildInfo()
			b, err := json.MarshalIndent(newVersionInfo(s.version, bi), "", "  ")
			if err != nil {
				return failf(2, "version: %v", err)
			}
			fmt.Fprintf(s.out, "%s\n", b)
			return nil
		},
	}
	addFormat(cmd, &format)
	addJSONAlias(cmd, &format)
	return cmd
}

// newVersionInfo reads what bi recorded; bi is nil when the binary has no
// build information.
func newVersionInfo(version string, bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: version}
	if bi == nil {
		return v
	}
	v.GoVersion, v.Module = bi.GoVersion, bi.Main.Path
	for _, st := range bi.Settings {
		switch st.Key {
		case "vcs.revision":
			v.VCSRevision = st.Value
		case "vcs.modified":
			modified := st.Value == "true"
			v.VCSModified = &modified
		}
	}
	return v
}
