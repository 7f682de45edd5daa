// Package certificate holds the completion certificate: its fields (a
// superset of craft-protocol's), its canonical JSON and SHA-256 fingerprint,
// and Validate, which returns every refusal token of craft-rules §1.2 under
// aepgate's stricter rules (§8.1). It is pure: bytes in, values out.
package certificate
