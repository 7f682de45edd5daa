package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newGateCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "gate",
		Short:  "(gate is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "gate is not available in this build")
		},
	}
}
