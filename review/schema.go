package review

import "strings"

// decodeAudit reads the block's fields into an Audit.
func (d *decoder) decodeAudit(v *value) *Audit {
	a := &Audit{}
	d.object(v, "$", []field{
		{"schema_version", true, d.version(a)},
		{"work_unit", true, func(v *value, p string) { d.text(v, p, &a.WorkUnit) }},
		{"verdict", true, func(v *value, p string) {
			d.oneOf(v, p, &a.Verdict, []string{VerdictPass, VerdictFail, VerdictNeedsEvidence})
		}},
		{"summary", true, func(v *value, p string) { d.text(v, p, &a.Summary) }},
		{"findings", false, func(v *value, p string) { d.list(v, p, 0, d.finding(a)) }},
		{"verification", false, func(v *value, p string) { d.list(v, p, 0, d.verification(a)) }},
		{"verdicts", false, func(v *value, p string) { d.list(v, p, 0, d.judgement(a)) }},
		{"evidence_requests", false, func(v *value, p string) {
			d.list(v, p, 0, func(v *value, p string) {
				var s string
				d.text(v, p, &s)
				a.EvidenceRequests = append(a.EvidenceRequests, s)
			})
		}},
	})
	return a
}

func (d *decoder) version(a *Audit) func(v *value, p string) {
	return func(v *value, p string) {
		if v.kind != kNumber || v.text != "1" {
			d.probs.add(p, "must be %d (got %s)", SchemaVersion, shown(v))
			return
		}
		a.SchemaVersion = SchemaVersion
	}
}

// shown is a value as a problem quotes it.
func shown(v *value) string {
	switch v.kind {
	case kNumber, kBool:
		return v.text
	case kString:
		return `"` + v.text + `"`
	}
	return v.kind.String()
}

func (d *decoder) finding(a *Audit) func(v *value, p string) {
	return func(v *value, p string) {
		var f Finding
		d.object(v, p, []field{
			{"id", true, func(v *value, p string) { d.text(v, p, &f.ID) }},
			{"severity", true, func(v *value, p string) { d.oneOf(v, p, &f.Severity, Severities) }},
			{"requirement", true, func(v *value, p string) { d.text(v, p, &f.Requirement) }},
			{"evidence", true, d.evidence(&f.Evidence, 1)},
			{"remedy", true, func(v *value, p string) { d.text(v, p, &f.Remedy) }},
		})
		a.Findings = append(a.Findings, f)
	}
}

func (d *decoder) verification(a *Audit) func(v *value, p string) {
	return func(v *value, p string) {
		var c Verification
		d.object(v, p, []field{
			{"check", true, func(v *value, p string) { d.text(v, p, &c.Check) }},
			{"outcome", true, func(v *value, p string) { d.oneOf(v, p, &c.Outcome, []string{OutcomePass, OutcomeFail}) }},
			{"evidence", false, d.evidence(&c.Evidence, 0)},
		})
		a.Verification = append(a.Verification, c)
	}
}

func (d *decoder) judgement(a *Audit) func(v *value, p string) {
	return func(v *value, p string) {
		var j Judgement
		d.object(v, p, []field{
			{"finding_id", true, func(v *value, p string) { d.text(v, p, &j.FindingID) }},
			{"verdict", true, func(v *value, p string) {
				d.oneOf(v, p, &j.Verdict, []string{Agree, DisagreeEvidence, DisagreeConcern})
			}},
			{"evidence", false, d.evidence(&j.Evidence, 0)},
		})
		a.Verdicts = append(a.Verdicts, j)
	}
}

// normalise folds case and runs of whitespace, for comparing requirements.
func normalise(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
