package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/release"
)

// releaseVerifyFlags are release verify's options.
type releaseVerifyFlags struct {
	repo, tag, manifest, tokenFile, githubURL string
	assets                                    []string
}

func newReleaseCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "release",
		Short: "Verify release closure on GitHub",
		Long: `A release is closed when the annotated tag is the default branch head, the
GitHub release is final and Latest, its assets are byte-identical to the
files at the tag and to the manifest, and its body carries the adoption
receipt.`,
	}, newReleaseVerifyCmd(s))
}

func newReleaseVerifyCmd(s streams) *cobra.Command {
	var fl releaseVerifyFlags
	cmd := &cobra.Command{
		Use:   "verify --repo owner/name --tag vX.Y.Z [flags]",
		Short: "Check that a release is closed (read-only)",
		Long: `Reads GitHub (never writes) and prints
{closed, version, tag, repository, remoteMainSha, tagSha, errors}: errors are
refusal tokens, sorted and unique; what each expected and saw, and any API
read that failed, go to stderr.

Run it in the release's checkout: the file at --manifest in the working
directory is the local manifest that the manifest at the tag must equal
(` + inputLimits("it", readfile.Manifest) + `).

The token is read only from --token-file: a regular file you own with no
group or other permission bits (chmod 600), 1-4096 characters. Environment
variables are never read. Without a usable token nothing is requested.

Exit codes: 0 closed; 2 not closed or bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return releaseVerify(c, s, fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.repo, "repo", "", "repository as owner/name (required)")
	f.StringVar(&fl.tag, "tag", "", "release tag, v<major>.<minor>.<patch> (required)")
	f.StringVar(&fl.manifest, "manifest", gh.DefaultManifestPath, "manifest path in the repository and in the working directory")
	f.StringSliceVar(&fl.assets, "assets", nil, "release assets to download and compare, comma-separated (default: the manifest)")
	f.StringVar(&fl.tokenFile, "token-file", "", "file holding the GitHub token (mode 0600, owned by you)")
	f.StringVar(&fl.githubURL, "github-url", "", "GitHub API root for GitHub Enterprise Server (default https://api.github.com/)")
	_ = cmd.MarkFlagRequired("repo")
	_ = cmd.MarkFlagRequired("tag")
	return cmd
}

func releaseVerify(c *cobra.Command, s streams, fl releaseVerifyFlags) error {
	for _, p := range append([]string{fl.manifest}, fl.assets...) {
		if err := release.SafePath(p); err != nil {
			return failf(2, "release verify: %v", err)
		}
	}
	token, tokErr := gh.ReadTokenFile(fl.tokenFile)
	if res, stop := release.Early(fl.tag, fl.repo, tokErr == nil); stop {
		if tokErr != nil {
			fmt.Fprintf(s.err, "token: %v\n", tokErr)
		}
		return printRelease(s, res)
	}
	local, err := readfile.File(c.Context(), fl.manifest, readfile.Manifest)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(s.err, "local manifest: %v\n", err)
		}
		local = nil
	}
	client, err := gh.NewTokenClient(fl.githubURL, token, &http.Client{Timeout: 20 * time.Second})
	if err != nil {
		return failf(2, "release verify: %w", err)
	}
	res, err := gh.VerifyRelease(c.Context(), client, gh.ReleaseOptions{
		Repo: fl.repo, Tag: fl.tag, ManifestPath: fl.manifest, AssetNames: fl.assets, LocalManifest: local,
	})
	if err != nil {
		return failf(2, "release verify: %w", err)
	}
	return printRelease(s, res)
}

func printRelease(s streams, res release.Result) error {
	explainRelease(s.err, res)
	if err := writeEvidenceJSON(s.out, res); err != nil {
		return failf(2, "release verify: %w", err)
	}
	if !res.Closed {
		return exitCode(2)
	}
	return nil
}

func explainRelease(w io.Writer, res release.Result) {
	for _, n := range res.Notes {
		fmt.Fprintf(w, "github: %s\n", n)
	}
	for _, r := range res.Refusals {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(r.String()))
	}
}
