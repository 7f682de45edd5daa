package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newServeCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "serve",
		Short:  "(serve is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "serve is not available in this build")
		},
	}
}
