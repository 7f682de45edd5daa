package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newConfigCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "config",
		Short:  "(config is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "config is not available in this build")
		},
	}
}
