package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newLintCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "lint",
		Short:  "(lint is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "lint is not available in this build")
		},
	}
}
