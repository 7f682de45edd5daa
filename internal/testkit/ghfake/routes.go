package ghfake

// routes registers every route: REST, uploads, downloads and GraphQL.
func (f *Fake) routes() {
	f.appRoutes()
	f.gitRoutes()
	f.releaseRoutes()
	f.checkRoutes()
	f.issueRoutes()
	f.pullRoutes()
	f.actionsRoutes()
	f.deployRoutes()
	f.deploymentRoutes()
	f.statusRoutes()
	f.hookRoutes()
	f.graphRoutes()
	f.oauthRoutes()
	f.teamRoutes()
	f.attestationRoutes()
	f.metaRoutes()
	f.manifestRoutes()
}
