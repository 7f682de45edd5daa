package checks

import (
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The refusal tokens VerifyIncrementRun gives beside protocol/incrementrules's.
const (
	TokenIncrementSummary       = "increment-summary-invalid"
	TokenIncrementSummarySum    = "increment-summary-hash-mismatch"
	TokenIncrementTitle         = "increment-title-mismatch"
	TokenIncrementExternalID    = "increment-external-id-mismatch"
	TokenIncrementConclusion    = "increment-run-not-success"
	TokenIncrementIntegratedSha = "increment-integrated-sha-mismatch"
)

// incrementParts is what an increment run's summary holds.
type incrementParts struct {
	body      []byte
	headerSum string
	cert      incrementrules.Certificate
}

// incrementRule adds the refusals one aspect of an increment run earns.
type incrementRule func(r Run, p incrementParts) []refusal.Refusal

// incrementRules are every check VerifyIncrementRun makes; the
// negative-control test removes one to show the tampering it stops.
func incrementRules() []incrementRule {
	return []incrementRule{ruleIncrementConclusion, ruleIncrementSummarySum, ruleIncrementTitle, ruleIncrementExternalID, ruleIncrementIntegratedSha}
}

// VerifyIncrementRun reads an aepgate/increment run as GitHub returned it
// and returns the certificate it carries with every reason to refuse it:
// a summary not laid out as IncrementCertificateRun renders it, a header,
// title or external_id not naming the block's SHA-256, a run not
// completed with success, an integratedSha other than the run's commit,
// and whatever protocol/incrementrules's Validate refuses. Who wrote the run
// is the caller's to check.
func VerifyIncrementRun(r Run) (incrementrules.Certificate, []refusal.Refusal) {
	return verifyIncrementRun(r, incrementRules())
}

func verifyIncrementRun(r Run, rules []incrementRule) (incrementrules.Certificate, []refusal.Refusal) {
	var out []refusal.Refusal
	var p incrementParts
	body, sum, err := IncrementFromSummary(r.Summary)
	if err != nil {
		out = append(out, refusal.Refusal{Token: TokenIncrementSummary, Expected: "the summary aepgate renders: its header, then one fenced json line closing it", Seen: err.Error()})
	} else {
		p.body, p.headerSum = body, sum
		var rs []refusal.Refusal
		p.cert, rs = incrementrules.Validate(body)
		out = append(out, rs...)
	}
	for _, rule := range rules {
		out = append(out, rule(r, p)...)
	}
	return p.cert, out
}

func ruleIncrementConclusion(r Run, _ incrementParts) []refusal.Refusal {
	if r.EffectiveStatus() == StatusCompleted && r.Conclusion == ConclusionSuccess {
		return nil
	}
	return []refusal.Refusal{{Token: TokenIncrementConclusion, Expected: "status completed, conclusion success",
		Seen: "status " + string(r.EffectiveStatus()) + ", conclusion " + orNone(string(r.Conclusion))}}
}

func ruleIncrementSummarySum(_ Run, p incrementParts) []refusal.Refusal {
	if p.body == nil || p.headerSum == sha256Hex(string(p.body)) {
		return nil
	}
	return []refusal.Refusal{{Token: TokenIncrementSummarySum, Expected: "the header naming SHA-256 " + sha256Hex(string(p.body)), Seen: clip(p.headerSum, 80)}}
}

func ruleIncrementTitle(r Run, p incrementParts) []refusal.Refusal {
	if p.body == nil || r.Title == IncrementTitle(sha256Hex(string(p.body))) {
		return nil
	}
	return []refusal.Refusal{{Token: TokenIncrementTitle, Expected: "title " + IncrementTitle(sha256Hex(string(p.body))), Seen: orNone(r.Title)}}
}

func ruleIncrementExternalID(r Run, p incrementParts) []refusal.Refusal {
	if p.body == nil || r.ExternalID == CertificateExternalID(sha256Hex(string(p.body))) {
		return nil
	}
	return []refusal.Refusal{{Token: TokenIncrementExternalID, Expected: "external_id " + CertificateExternalID(sha256Hex(string(p.body))), Seen: orNone(r.ExternalID)}}
}

func ruleIncrementIntegratedSha(r Run, p incrementParts) []refusal.Refusal {
	if p.body == nil || p.cert.IntegratedSha == r.HeadSHA {
		return nil
	}
	return []refusal.Refusal{{Token: TokenIncrementIntegratedSha, Expected: "integratedSha " + r.HeadSHA + ", the commit the check run is on", Seen: orNone(p.cert.IntegratedSha)}}
}
