package ghfake

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"time"
)

// Verification is what GitHub verified of a commit's signature (GraphQL
// Commit.signature, REST commit.verification).
type Verification struct {
	// Signer is the account whose signing key made the signature; "" for
	// a key GitHub links to no account.
	Signer string
	// State is GitHub's GitSignatureState ("VALID", "UNKNOWN_KEY",
	// "UNVERIFIED_EMAIL", ...); "" means VALID.
	State string
	// ByGitHub: GitHub made the signature with its own key, as it signs
	// commits made on github.com or through the API (wasSignedByGitHub, a
	// GPG signature).
	ByGitHub bool
	// GPG: an OpenPGP signature; otherwise an SSH one.
	GPG bool
}

// verifiedSig is a commit's recorded Verification.
type verifiedSig struct {
	v  Verification
	at time.Time
}

// SignCommit records that commit sha carries a signature GitHub verified
// as v. The fake keeps it beside the commit: the git object gets no gpgsig
// header, so the commit's SHA stays the unsigned object's (a clone made
// from the fake's objects is unchanged). It panics on an unknown commit.
func (r *Repo) SignCommit(sha string, v Verification) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	c := r.s.git.commits[sha]
	if c == nil {
		panic(fmt.Sprintf("ghfake: SignCommit(%q): no such commit in %s", sha, r.s.fullName))
	}
	if v.State == "" {
		v.State = "VALID"
	}
	if v.ByGitHub {
		v.GPG = true
	}
	if v.Signer != "" {
		r.f.ensureUser(v.Signer)
	}
	c.verified = &verifiedSig{v: v, at: r.f.clock()}
}

// armored is the signature's text, as git writes it in the gpgsig header.
func (s *verifiedSig) armored(c *commitObj) string {
	kind := "SSH SIGNATURE"
	if s.v.GPG {
		kind = "PGP SIGNATURE"
	}
	sum := sha256.Sum256(append([]byte(s.v.Signer+"\n"), c.text()...))
	return fmt.Sprintf("-----BEGIN %s-----\n%x\n-----END %s-----\n", kind, sum, kind)
}

// signatureField is Commit.signature: a GpgSignature or SshSignature, or
// null for an unsigned commit.
func (r *commitRes) signatureField(x *gqlExec) any {
	s := r.c.verified
	if s == nil {
		return nil
	}
	valid := s.v.State == "VALID"
	var verifiedAt any
	if valid {
		verifiedAt = ts(s.at)
	}
	m := map[string]any{
		"email": r.c.committer.Email, "isValid": valid, "payload": string(r.c.text()), "signature": s.armored(r.c),
		"signer": x.c.f.signer(s.v.Signer), "state": s.v.State, "verifiedAt": verifiedAt, "wasSignedByGitHub": s.v.ByGitHub,
	}
	if s.v.GPG {
		m["keyId"] = fmt.Sprintf("%X", sha256.Sum256([]byte(s.v.Signer)))[:16]
		return mapRes{"GpgSignature", m}
	}
	m["keyFingerprint"] = fmt.Sprintf("SHA256:%x", sha256.Sum256([]byte(s.v.Signer)))
	return mapRes{"SshSignature", m}
}

// signer is GitSignature.signer: the User, or null.
func (f *Fake) signer(login string) any {
	if login == "" {
		return nil
	}
	if u := f.users[strings.ToLower(login)]; u != nil && u.typ == "User" {
		return actor(f, u)
	}
	return nil
}

// verification is REST's commit.verification. GitHub's reason is the
// state in lower case, but for two states it spells out.
func (f *Fake) verification(c *commitObj) obj {
	s := c.verified
	if s == nil {
		return unsigned()
	}
	reason := map[string]string{"UNKNOWN_SIG_TYPE": "unknown_signature_type", "MALFORMED_SIG": "malformed_signature"}[s.v.State]
	if reason == "" {
		reason = strings.ToLower(s.v.State)
	}
	valid := s.v.State == "VALID"
	var at any
	if valid {
		at = ts(s.at)
	}
	return obj{"verified": valid, "reason": reason, "signature": s.armored(c), "payload": string(c.text()), "verified_at": at}
}
