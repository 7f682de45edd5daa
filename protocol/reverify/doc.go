// Package reverify re-checks the evidence of a run folder's DONE tasks:
// it finds, for each task whose latest report in the compliance log is
// DONE, the task's **Verify:** command in the execution guide and the
// output pasted under the report's **Verify output:**, and compares them
// with what a re-run of the command observed. A non-zero exit, or output
// that no longer contains the pasted output's last line, is a false green.
//
// The package is pure: the run documents and the re-runs' outcomes in,
// findings out. Running the commands (isolated, with a timeout, without
// the job's token) is the caller's business.
package reverify
