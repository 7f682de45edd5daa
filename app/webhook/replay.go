package webhook

import "time"

// ReplayMemory is how long the App remembers a verified body's SHA-256: a
// captured signed body sent again under a new delivery ID within it is
// answered 200 ("replayed") and not queued again. The queue decides it,
// from Delivery.BodySHA256, in the transaction that records the delivery
// ID and inserts the job (Outcome.ReplayOf).
const ReplayMemory = 24 * time.Hour
