package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newActionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "action",
		Short:  "(action is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "action is not available in this build")
		},
	}
}
