package incrementrules

import (
	"sort"
	"strconv"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/certificate"
)

// SchemaVersion is the only increment certificate schema aepgate writes
// and accepts.
const SchemaVersion = 1

// Kind tells an increment certificate from a unit's.
const Kind = "increment"

// CertStory is one story as the increment certificate binds it.
type CertStory struct {
	Unit int    `json:"unit"`
	Risk string `json:"risk"`
	// MergeSha is the commit the story was integrated by; empty when the
	// owner counted it done without a merge.
	MergeSha string `json:"mergeSha,omitempty"`
	// CertificateSha256 is its aepgate/certificate's SHA-256; empty for a
	// low-risk story merged and read back without one.
	CertificateSha256 string `json:"certificateSha256,omitempty"`
	// EnvelopeSha256 is the SHA-256 of the signed DSSE envelope of that
	// certificate as the App published it (protocol/attest.EnvelopeDigest);
	// empty when the story's certificate was not signed.
	EnvelopeSha256 string `json:"envelopeSha256,omitempty"`
}

// DemoRecord is the demonstration the certificate binds.
type DemoRecord struct {
	Criterion string `json:"criterion"`
	CommentID int64  `json:"commentId"`
	Evidence  string `json:"evidence"`
}

// Certificate is the increment certificate (craft §5.4's completion
// evidence, on GitHub): the milestone, its stories with their merge
// commits and certificates, the integrated commit, the readback run IDs at
// it, the owner's accepting comment and the demonstration.
type Certificate struct {
	SchemaVersion       int               `json:"schemaVersion"`
	Kind                string            `json:"kind"`
	Repository          string            `json:"repository"`
	Milestone           int               `json:"milestone"`
	Title               string            `json:"title"`
	RiskTier            string            `json:"riskTier"`
	Stories             []CertStory       `json:"stories"`
	IntegratedSha       string            `json:"integratedSha"`
	ReadbackRunIds      []string          `json:"readbackRunIds"`
	ReadbackRuns        []certificate.Run `json:"readbackRuns"`
	AcceptanceCommentID int64             `json:"acceptanceCommentId,omitempty"`
	Demonstration       *DemoRecord       `json:"demonstration,omitempty"`
}

// Canonical returns the certificate's canonical JSON (sorted keys, no
// whitespace, ASCII only).
func (c Certificate) Canonical() ([]byte, error) { return canonical.Marshal(c) }

// draw builds the certificate of a complete increment and its SHA-256.
func draw(f Facts, v Verdict) ([]byte, string) {
	c := Certificate{SchemaVersion: SchemaVersion, Kind: Kind, Repository: f.Repo, Milestone: f.Milestone, Title: f.Title,
		RiskTier: v.Tier, IntegratedSha: f.Candidate.SHA, AcceptanceCommentID: v.Acceptance, Stories: []CertStory{}}
	for _, s := range f.Stories {
		cs := CertStory{Unit: s.Number, Risk: storyRisk(s)}
		if a := merged(s); a != nil {
			cs.MergeSha, cs.CertificateSha256 = a.MergeSHA, a.CertificateSHA256
			if a.CertificateSHA256 != "" {
				cs.EnvelopeSha256 = f.Envelopes[a.MergeSHA]
			}
		}
		c.Stories = append(c.Stories, cs)
	}
	sort.Slice(c.Stories, func(i, j int) bool { return c.Stories[i].Unit < c.Stories[j].Unit })
	c.ReadbackRunIds, c.ReadbackRuns = []string{}, []certificate.Run{}
	for _, wf := range f.Required {
		for _, r := range runsOf(f, wf) {
			c.ReadbackRunIds = append(c.ReadbackRunIds, strconv.FormatInt(r.ID, 10))
			c.ReadbackRuns = append(c.ReadbackRuns, certificate.Run{ID: r.id(), Workflow: r.Workflow})
		}
	}
	if d := v.Demonstrated; d != nil {
		c.Demonstration = &DemoRecord{Criterion: d.Criterion, CommentID: d.CommentID, Evidence: d.Evidence.Key()}
	}
	raw, err := c.Canonical()
	if err != nil {
		return nil, "" // plain strings and numbers always encode
	}
	return raw, certificate.FileFingerprint(raw)
}
