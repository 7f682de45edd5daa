package main

import "github.com/spf13/cobra"

// PLACEHOLDER: replaced by the issue that builds this command.
func newLedgerCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:    "ledger",
		Short:  "(ledger is being built)",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "ledger is not available in this build")
		},
	}
}
