package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newInitCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "init",
		Short:  "(init is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "init is not available in this build")
		},
	}
}
