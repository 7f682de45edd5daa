package snapshot

// BaseFile is the base policy a repository config extends
// ("extends: OWNER/REPO:PATH"), as read from that repository's default
// branch.
type BaseFile struct {
	// Ref is the base as the config names it.
	Ref string
	// Text is the file's content.
	Text string
	// Unreadable says why it could not be read (not found, no access, an
	// API error); empty when Text holds it. An unreadable base never
	// leaves the repository's file to stand alone: the policy is refused.
	Unreadable string
	// Unanswered says GitHub or the network did not answer the read (a
	// retry may succeed); Unreadable says so too.
	Unanswered bool
}
