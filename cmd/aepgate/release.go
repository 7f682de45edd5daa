package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newReleaseCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "release",
		Short:  "(release is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "release is not available in this build")
		},
	}
}
