// Package attest signs and verifies aepgate's completion certificates as
// in-toto Statements (v1) in DSSE envelopes, so that anyone holding the
// public keys can check a certificate offline: the envelope's signature,
// the statement, its subject (the certificated commit by its git SHA) and
// the certificate's own rules (protocol/certificate). Increment
// certificates (protocol/incrementrules) are signed the same way under their
// own predicate type, and verified with the unit envelopes of their
// stories, which they name by digest (VerifyIncrement). It also writes and
// reads the JWKS that publishes the public keys, and signs the ledger's
// head. It is pure: keys come in as values, bytes come out.
//
// DSSE (https://github.com/secure-systems-lab/dsse/blob/master/protocol.md)
// and the in-toto Statement v1
// (https://github.com/in-toto/attestation/blob/main/spec/v1/statement.md)
// are implemented here rather than imported: the DSSE Go package
// (go-securesystemslib/dsse) pulls in golang.org/x/crypto/ssh, which
// imports log and net (forbidden in pure packages), and prints to standard
// output while verifying; in-toto's Go bindings are protobuf types. Both
// specs are a few lines; the interoperability test checks ours against
// Sigstore's own verifier.
package attest
