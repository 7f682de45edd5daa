package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newNegcontrolCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "negcontrol",
		Short:  "(negcontrol is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "negcontrol is not available in this build")
		},
	}
}
