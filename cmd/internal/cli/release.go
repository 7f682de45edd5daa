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
	"github.com/aepgate/aepgate/protocol/releaserules"
)

// releaseVerifyFlags are release verify's options.
type releaseVerifyFlags struct {
	repo, tag, manifest, tokenFile, githubURL, format string
	assets                                            []string
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
group or other permission bits (chmod 600), 1-4096 characters. GH_TOKEN,
GITHUB_TOKEN and other variables are never read here, unlike 'certificate
fetch': release closure follows craft-protocol's rule (spec §2), where a
variable planted in the environment of a release job must not be able to
supply the identity a closure is checked with; a token in a file you own and
no one else can read is a choice you made. Without a usable token nothing is
requested ("github-auth-token-file-unavailable").

--format text prints the refusal tokens one a line instead of the JSON.

Exit codes: 0 closed; 1 not closed; 2 bad usage or an unreadable manifest
path; 3 not closed because GitHub did not answer a read (the JSON is printed
all the same); 130 interrupted.`,
		Example: `  aepgate release verify --repo acme/app --tag v1.2.3 --token-file ~/.config/aepgate/token
  aepgate release verify --repo acme/app --tag v1.2.3 --token-file token --assets aepgate_1.2.3_linux_amd64.tar.gz,checksums.txt`,
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
	addFormatJSONFirst(cmd, &fl.format)
	_ = cmd.MarkFlagRequired("repo")
	_ = cmd.MarkFlagRequired("tag")
	return cmd
}

func releaseVerify(c *cobra.Command, s streams, fl releaseVerifyFlags) error {
	for _, p := range append([]string{fl.manifest}, fl.assets...) {
		if err := releaserules.SafePath(p); err != nil {
			return failf(exitUsage, "release verify: %v", err)
		}
	}
	token, tokErr := gh.ReadTokenFile(fl.tokenFile)
	if res, stop := releaserules.Early(fl.tag, fl.repo, tokErr == nil); stop {
		if tokErr != nil {
			fmt.Fprintf(s.err, "token: %v\n", tokErr)
		}
		return printRelease(s, fl.format, res)
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
		return failf(exitUsage, "release verify: %w", err)
	}
	res, err := gh.VerifyRelease(c.Context(), client, gh.ReleaseOptions{
		Repo: fl.repo, Tag: fl.tag, ManifestPath: fl.manifest, AssetNames: fl.assets, LocalManifest: local,
	})
	if err != nil {
		return failf(networkCode(err, exitFindings), "release verify: %w", err)
	}
	return printRelease(s, fl.format, res)
}

func printRelease(s streams, format string, res releaserules.Result) error {
	explainRelease(s.err, res)
	var err error
	if format == formatText {
		err = writeReleaseText(s.out, res)
	} else {
		err = writeEvidenceJSON(s.out, res)
	}
	if err != nil {
		return failf(exitUsage, "release verify: %w", err)
	}
	switch {
	case !res.Closed && res.Unreachable:
		return failf(exitUnreachable, "release verify: GitHub did not answer (see the github: lines); retry later")
	case !res.Closed:
		return exitCode(exitFindings)
	}
	return nil
}

// writeReleaseText prints "closed" or "not closed" and the refusal tokens.
func writeReleaseText(w io.Writer, res releaserules.Result) error {
	state := "closed"
	if !res.Closed {
		state = "not closed"
	}
	if _, err := fmt.Fprintf(w, "%s %s: %s\n", res.Repository, res.Tag, state); err != nil {
		return err
	}
	for _, e := range res.Errors {
		if _, err := fmt.Fprintf(w, "  %s\n", e); err != nil {
			return err
		}
	}
	return nil
}

func explainRelease(w io.Writer, res releaserules.Result) {
	for _, n := range res.Notes {
		fmt.Fprintf(w, "github: %s\n", n)
	}
	for _, r := range res.Refusals {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(r.String()))
	}
}
