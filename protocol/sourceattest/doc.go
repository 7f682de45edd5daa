// Package sourceattest builds, signs and verifies the standard statements
// aepgate can publish beside its own certificate for a merged revision:
//
//   - a source-review-coverage statement: how much of the shipped commit the
//     audit covers (protocol/coverage's class, the audited change, the
//     residual paths). Its predicate type is aepgate's own URI
//     (CoveragePredicateType): it follows the classes of the
//     source-review-coverage predicate proposed to in-toto, which v1.2.0 of
//     in-toto's attestation bindings does not define;
//   - an SLSA Verification Summary Attestation
//     (https://slsa.dev/verification_summary/v1) for the revision, with the
//     Source track's levels the evidence supports and
//     SLSA_SOURCE_TWO_PARTY_REVIEWED when the certificate shows the
//     independent audit and the owner rules held and the coverage is
//     identity or replay.
//
// The statements are in-toto's own Go types (github.com/in-toto/attestation
// v1.2.0: go/v1 for the statement and resource descriptors,
// go/predicates/vsa/v1 for the VSA), checked with the bindings' Validate.
// They are signed as DSSE envelopes with protocol/attest's Signer, like the
// certificate. The bindings are protobuf types; they import nothing a pure
// package may not (no net/http, no log), so this package stays pure.
package sourceattest
