package certificate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/aepgate/aepgate/protocol/canonical"
)

// SchemaVersion is the only certificate schema aepgate writes and accepts.
const SchemaVersion = 1

// Run is one CI workflow run bound into a certificate: its immutable run ID
// (decimal text) and the name of the workflow it ran.
type Run struct {
	ID       string `json:"id"`
	Workflow string `json:"workflow"`
}

// Certificate is a completion certificate. Its JSON field names are
// craft-protocol's; Repository, PullRequest, AuditReviewID, RequiredCiRuns,
// MergedMainRuns, MergeAuthority and Independence are aepgate's additions (GitHub identities and the
// workflow behind each run ID).
type Certificate struct {
	SchemaVersion        int      `json:"schemaVersion"`
	Project              string   `json:"project"`
	Repository           string   `json:"repository"`
	PullRequest          int      `json:"pullRequest"`
	WorkUnit             string   `json:"workUnit"`
	StoryID              string   `json:"storyId,omitempty"`
	Attempt              int      `json:"attempt,omitempty"`
	CandidateSha         string   `json:"candidateSha"`
	AuditedSha           string   `json:"auditedSha"`
	AuditorSessionID     string   `json:"auditorSessionId"`
	AuditReviewID        int64    `json:"auditReviewId"`
	AuditVerdict         string   `json:"auditVerdict"`
	RequiredCiRunIds     []string `json:"requiredCiRunIds"`
	RequiredCiRuns       []Run    `json:"requiredCiRuns"`
	RequiredCiAllSuccess bool     `json:"requiredCiAllSuccess"`
	MergeSha             string   `json:"mergeSha"`
	MergedMainRunIds     []string `json:"mergedMainRunIds"`
	MergedMainRuns       []Run    `json:"mergedMainRuns"`
	MergedMainAllSuccess bool     `json:"mergedMainAllSuccess"`
	HeadUnchanged        bool     `json:"headUnchanged"`
	UnresolvedGates      []string `json:"unresolvedGates"`
	CreatedAt            int64    `json:"createdAt,omitempty"`
	// MergeAuthority is aepgate's addition when the repository sets
	// merge.authority: who merged, under which authority (mergeauth.go).
	MergeAuthority *MergeAuthority `json:"mergeAuthority,omitempty"`
	// Independence is aepgate's addition for a pull request a listed agent
	// made: each push's author, agent and instructor, and the approvals
	// that counted (independence.go).
	Independence *Independence `json:"independence,omitempty"`
}

// Canonical returns the certificate's canonical JSON: sorted keys, no
// insignificant whitespace, non-ASCII escaped. Nil lists are written as [].
func (c Certificate) Canonical() ([]byte, error) {
	c = c.withEmptyLists()
	b, err := canonical.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("certificate: %w", err)
	}
	return b, nil
}

// Fingerprint returns the lowercase hex SHA-256 of the canonical JSON; it is
// what the check run's title and external_id carry.
func (c Certificate) Fingerprint() (string, error) {
	b, err := c.Canonical()
	if err != nil {
		return "", err
	}
	return FileFingerprint(b), nil
}

// FileFingerprint is craft's consumption identity: the lowercase hex SHA-256
// of the raw bytes, with no canonicalisation.
func FileFingerprint(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

func (c Certificate) withEmptyLists() Certificate {
	if c.RequiredCiRunIds == nil {
		c.RequiredCiRunIds = []string{}
	}
	if c.RequiredCiRuns == nil {
		c.RequiredCiRuns = []Run{}
	}
	if c.MergedMainRunIds == nil {
		c.MergedMainRunIds = []string{}
	}
	if c.MergedMainRuns == nil {
		c.MergedMainRuns = []Run{}
	}
	if c.UnresolvedGates == nil {
		c.UnresolvedGates = []string{}
	}
	return c
}
