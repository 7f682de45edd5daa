package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// resolveFlags are config validate's options for a file that extends a
// base policy.
type resolveFlags struct {
	resolved                                 bool
	base, repo, tokenFile, githubURL, format string
}

func addResolveFlags(cmd *cobra.Command, fl *resolveFlags) {
	f := cmd.Flags()
	f.BoolVar(&fl.resolved, "resolved", false, "print the effective policy: every key, its value and where it came from")
	f.StringVar(&fl.base, "base", "", "a local copy of the base policy the file extends")
	f.StringVar(&fl.repo, "repo", "", "owner/name: read the base (and, without a file argument, this repository's config) through GitHub as the App does")
	f.StringVar(&fl.tokenFile, "token-file", "", "with --repo: file holding a GitHub token (mode 0600, owned by you); default: GH_TOKEN, then GITHUB_TOKEN")
	f.StringVar(&fl.githubURL, "github-url", "", "with --repo: GitHub API root for GitHub Enterprise Server (default https://api.github.com/)")
	cmd.MarkFlagsMutuallyExclusive("base", "repo")
}

// configResolve checks the repository file and, when it extends a base,
// merges it with the base (from --base or, with --repo, through GitHub),
// and reports it; --resolved prints the effective policy.
func configResolve(ctx context.Context, s streams, path string, fl resolveFlags) error {
	var gitHub *gh.Installation
	if fl.repo != "" {
		in, err := resolveClient(fl)
		if err != nil {
			return err
		}
		gitHub = in
	}
	name, f, err := policyFile(ctx, gitHub, path, fl.repo)
	if err != nil {
		return err
	}
	file, err := config.ParseFile(name, []byte(f.Text))
	if err != nil {
		return resolveProblems(s, name, fl.format, err)
	}
	base, err := baseFile(ctx, gitHub, file, f.Base, fl)
	if err != nil {
		return resolveProblems(s, name, fl.format, err)
	}
	rules := config.DefaultMergeRules()
	r, err := config.Resolve(file, base, rules)
	if err != nil {
		return resolveProblems(s, name, fl.format, err)
	}
	return printResolved(s.out, name, r, rules, fl)
}

// resolveClient is the read-only GitHub client of --repo.
func resolveClient(fl resolveFlags) (*gh.Installation, error) {
	if !ownerName().MatchString(fl.repo) {
		return nil, failf(exitUsage, "config validate: --repo %q is not owner/name", fl.repo)
	}
	token, err := simulateToken(fl.tokenFile)
	if err != nil {
		return nil, failf(exitUsage, "config validate: %w", err)
	}
	in, err := gh.NewReadInstallation(fl.githubURL, token)
	if err != nil {
		return nil, failf(exitUsage, "config validate: %w", err)
	}
	return in, nil
}

// policyFile is the repository file to check: the file at path, or (no path,
// with --repo) the repository's own on its default branch, read as the App
// reads it, with the base it extends.
func policyFile(ctx context.Context, in *gh.Installation, path, repo string) (string, snapshot.ConfigFile, error) {
	if path != "" {
		data, err := cfgRead(ctx, path)
		return shown(path), snapshot.ConfigFile{Found: true, Text: string(data)}, err
	}
	owner, name, _ := strings.Cut(repo, "/")
	snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: owner, Repo: name})
	shownName := repo + ":" + config.DefaultPath
	switch {
	case err != nil:
		return "", snapshot.ConfigFile{}, failf(networkCode(err, exitUsage), "config validate: %s: %w", repo, err)
	case snap.Config.Unreadable != "":
		return "", snapshot.ConfigFile{}, failf(exitUsage, "%s: cannot be read: %s", shownName, snap.Config.Unreadable)
	case !snap.Config.Found || snap.Config.Truncated:
		return "", snapshot.ConfigFile{}, failf(exitUsage, "%s: not found on the default branch, or too large", shownName)
	}
	return shownName, snap.Config, nil
}

// baseFile is the base the file extends, parsed: from --base, else as read
// with the file, else through GitHub; nil when the file extends none.
func baseFile(ctx context.Context, in *gh.Installation, file *config.File, read *snapshot.BaseFile, fl resolveFlags) (*config.File, error) {
	ref := file.Config.Extends
	switch {
	case ref == "" && fl.base != "":
		return nil, failf(exitUsage, "%s extends no base; --base applies only to a file with \"extends\"", file.Name)
	case ref == "":
		return nil, nil
	case fl.base != "":
		data, err := cfgRead(ctx, fl.base)
		if err != nil {
			return nil, err
		}
		return config.ParseFile(shown(fl.base), data)
	case in == nil:
		return nil, failf(exitUsage, "%s extends %s: give --base FILE (a copy of it) or --repo owner/name to read it through GitHub", file.Name, ref)
	}
	if read == nil || read.Ref != ref {
		b, err := in.ReadBase(ctx, ref)
		if err != nil {
			return nil, failf(networkCode(err, exitUsage), "config validate: %w", err)
		}
		read = &b
	}
	if read.Unreadable != "" {
		code := exitUsage
		if read.Unanswered {
			code = exitUnreachable
		}
		return nil, failf(code, "%s extends %s, which cannot be read: %s", file.Name, ref, read.Unreadable)
	}
	return config.ParseFile(ref, []byte(read.Text))
}

// resolveProblems reports err: positioned problems (of either file) as
// config validate reports them, exit 1; any other error as it is.
func resolveProblems(s streams, name, format string, err error) error {
	var problems config.Errors
	if !errors.As(err, &problems) {
		return err
	}
	if format == formatJSON {
		if werr := writeJSON(s.out, configReport(name, problems)); werr != nil {
			return failf(exitUsage, "config validate: %v", werr)
		}
	} else {
		fmt.Fprintln(s.out, problems)
	}
	return exitCode(exitFindings)
}

// printResolved reports a valid policy: "<file>: ok" and, with --resolved,
// every key as "key: value  # source".
func printResolved(w io.Writer, name string, r *config.Resolved, rules []config.MergeRule, fl resolveFlags) error {
	if fl.format == formatJSON {
		report := configReport(name, nil)
		if fl.resolved {
			report["base"], report["resolved"] = r.Base, r.Lines(rules)
		}
		if err := writeJSON(w, report); err != nil {
			return failf(exitUsage, "config validate: %v", err)
		}
		return nil
	}
	if r.Base != "" {
		fmt.Fprintf(w, "%s: ok (extends %s)\n", name, r.Base)
	} else {
		fmt.Fprintf(w, "%s: ok\n", name)
	}
	if fl.resolved {
		for _, l := range r.Lines(rules) {
			fmt.Fprintf(w, "%s: %s  # %s\n", l.Key, l.Value, l.Source)
		}
	}
	return nil
}

// simulateToken is the token from file, else GH_TOKEN, else GITHUB_TOKEN.
func simulateToken(file string) (string, error) {
	if file != "" {
		return gh.ReadTokenFile(file)
	}
	for _, v := range []string{"GH_TOKEN", "GITHUB_TOKEN"} {
		if t := strings.TrimSpace(os.Getenv(v)); t != "" {
			return t, nil
		}
	}
	return "", fmt.Errorf("no token: give --token-file, or set GH_TOKEN or GITHUB_TOKEN")
}
