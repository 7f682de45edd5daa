package app

// pushed is one branch move a delivery reports: Login (the sender) moved
// a branch to SHA. GitHub records no pusher on a commit, so the senders of
// pull_request opened and synchronize and of push are the only evidence of
// who put a commit on a pull request (recordPush).
type pushed struct {
	SHA, Login string
}
