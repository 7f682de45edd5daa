// Package ghfake is a stateful, in-process fake of GitHub for tests: a REST
// API (and GraphQL at /graphql) on an httptest server that go-github and
// githubv4 talk to unchanged, App authentication with real RS256 JWTs and
// expiring installation tokens, git objects hashed as git hashes them, and a
// scenario API that reads like the story a test tells:
//
//	f := ghfake.New(t)
//	repo := f.CreateRepo("acme/widgets")
//	sha := repo.Commit("main", "add config", map[string]string{".github/aepgate.yml": cfg})
//	tok := f.ActionsToken(repo, ghfake.Permissions{"checks": "write"})
//	client := f.Client(tok)
//
// Every request is logged and counted (per route pattern, per installation,
// reads and writes) so tests can assert what an evaluation cost and list every
// write it made. All state sits behind one mutex.
//
// It is test infrastructure. The one production package that may import it
// is cmd/internal/demo, behind `aepgate-demo`, which runs the App against it
// in-process; internal/archtest enforces this. That is why the fake does
// not import the testing package (New takes a TB) and carries GitHub's
// GraphQL schema embedded. The knobs negative-control tests use to remove
// the fake's own protections are unexported, so the demo cannot reach them;
// fault injection (InjectFault) is exported and the demo's outage scenario
// uses it.
package ghfake
