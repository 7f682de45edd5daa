package ghfake

// TB is the part of testing.TB the fake uses: it reports the fake's own
// bugs to the test that met them and stops the server when the test ends.
// Every *testing.T, *testing.B and *testing.F satisfies it; the fake does
// not import the testing package, so a binary may link it (aepgate-demo).
type TB interface {
	// Helper marks the caller as a helper, as testing.TB.Helper does.
	Helper()
	// Errorf reports a failure and lets the test go on.
	Errorf(format string, args ...any)
	// Cleanup registers fn to run when the test ends.
	Cleanup(fn func())
}

// fataler is what RequireGraphQL needs of a test.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}
