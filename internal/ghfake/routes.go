package ghfake

import "strings"

// routes registers every REST route; GraphQL is registered by graphRoutes.
func (f *Fake) routes() {
	f.appRoutes()
	f.gitRoutes()
	f.releaseRoutes()
	f.checkRoutes()
	f.issueRoutes()
	f.pullRoutes()
	f.actionsRoutes()
}

var cutPrefix = strings.CutPrefix
