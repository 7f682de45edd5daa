package store

// SweepEvent is the event the ledger records for the work of the App's
// periodic sweep (a row's "event"): the name every row of the sweep has
// carried, kept so that the ledger reads the same.
const SweepEvent = "reconcile"
