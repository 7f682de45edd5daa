// Package verdict is what the App decides about one pull request head,
// with no I/O: the Evaluation (the snapshot, the parsed config and what
// the App read besides, as its checks declared in Reads), the values
// derived once from it (the gate log, the work unit's verdict, the audit's
// decision), the App's checks (DefaultChecks) and the plans of its answers
// to owner commands (PlanAnswer, PlanStatus, OwnersToAsk) and of its
// ledger rows. Package app reads, locks and writes; this package only
// decides, so every decision is testable on a literal snapshot.
package verdict
