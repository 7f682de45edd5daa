package incrementrules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/refusal"
)

var (
	sha40 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })
	sha64 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })
)

// Validate reads an increment certificate's canonical JSON strictly (no
// unknown or duplicate field, canonical form) and returns it with every
// reason to refuse it: a wrong schema or kind, no stories, an integrated
// SHA or merge SHA that is not a full commit SHA, no readback run, a
// medium or high story without a certificate in a medium or high
// increment, a high increment without an accepting comment. It does not
// check that the commit carrying it is IntegratedSha (the caller must).
func Validate(raw []byte) (Certificate, []refusal.Refusal) {
	var c Certificate
	if rs := strict(raw, &c); rs != nil {
		return c, rs
	}
	var rs []refusal.Refusal
	add := func(ok bool, token, expected, seen string) {
		if !ok {
			rs = append(rs, refusal.Refusal{Token: token, Expected: expected, Seen: seen})
		}
	}
	add(c.SchemaVersion == SchemaVersion, "increment-schema", "schemaVersion 1", strconv.Itoa(c.SchemaVersion))
	add(c.Kind == Kind, "increment-kind", "kind increment", c.Kind)
	add(c.Milestone > 0, "increment-milestone", "a milestone number", strconv.Itoa(c.Milestone))
	add(slices.Contains(tiers, c.RiskTier), "increment-risk-tier", "riskTier low, medium or high", c.RiskTier)
	add(sha40().MatchString(c.IntegratedSha), "increment-integrated-sha", "a 40-hex integratedSha", c.IntegratedSha)
	add(len(c.Stories) > 0, "increment-stories", "at least one story", "none")
	add(len(c.ReadbackRunIds) > 0 && len(c.ReadbackRunIds) == len(c.ReadbackRuns), "increment-readback-runs", "readback run IDs, one per readback run", fmt.Sprint(len(c.ReadbackRunIds)))
	add(c.RiskTier != "high" || c.AcceptanceCommentID > 0, "increment-acceptance", "the owner's accepting comment for a high increment", "none")
	for _, s := range c.Stories {
		add(s.Unit > 0 && slices.Contains(tiers, s.Risk), "increment-story", "a unit number and a risk tier", fmt.Sprintf("unit %d risk %q", s.Unit, s.Risk))
		add(s.MergeSha == "" || sha40().MatchString(s.MergeSha), "increment-story-merge-sha", "a 40-hex mergeSha", s.MergeSha)
		certifiedOK := s.CertificateSha256 != "" && sha64().MatchString(s.CertificateSha256)
		add(s.CertificateSha256 == "" || certifiedOK, "increment-story-certificate", "a 64-hex certificateSha256", s.CertificateSha256)
		add(s.EnvelopeSha256 == "" || (certifiedOK && sha64().MatchString(s.EnvelopeSha256)), "increment-story-envelope",
			"a 64-hex envelopeSha256 beside the story's certificateSha256", s.EnvelopeSha256)
		add(c.RiskTier == "low" || s.Risk == "low" || certifiedOK, "increment-story-uncertified",
			fmt.Sprintf("story #%d (%s risk) certified in a %s increment", s.Unit, s.Risk, c.RiskTier), "no certificate")
	}
	return c, rs
}

// strict decodes raw into c, refusing what is not canonical JSON of the
// schema.
func strict(raw []byte, c *Certificate) []refusal.Refusal {
	m, err := canonical.ParseObject(raw, canonical.Options{RejectDuplicateKeys: true})
	if err != nil {
		return []refusal.Refusal{{Token: "increment-not-json", Expected: "one JSON object", Seen: err.Error()}}
	}
	if again, err := canonical.Marshal(m); err != nil || !bytes.Equal(again, raw) {
		return []refusal.Refusal{{Token: "increment-not-canonical", Expected: "canonical JSON (sorted keys, no whitespace, ASCII only)", Seen: "other bytes"}}
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(c); err != nil {
		return []refusal.Refusal{{Token: "increment-schema", Expected: "the increment certificate's fields only", Seen: err.Error()}}
	}
	return nil
}
