package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newCertificateCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "certificate",
		Short:  "(certificate is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "certificate is not available in this build")
		},
	}
}
