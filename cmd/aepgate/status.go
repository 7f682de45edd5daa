package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newStatusCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "status",
		Short:  "(status is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "status is not available in this build")
		},
	}
}
