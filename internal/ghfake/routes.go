package ghfake

import "strings"

// routes registers every REST route; GraphQL is registered by graphRoutes.
func (f *Fake) routes() {
	f.appRoutes()
	f.gitRoutes()
	f.releaseRoutes()
	f.checkRoutes()
}

var cutPrefix = strings.CutPrefix

// prRefsForSHA lists the pull requests whose head is sha, as the minimal
// objects check runs and suites carry.
func (f *Fake) prRefsForSHA(s *repoState, sha string) []any {
	return []any{}
}
