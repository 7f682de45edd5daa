// Package review evaluates independent audits: pull request reviews whose
// body holds one fenced aep-audit block (docs/audit.md). It is pure: review
// text, the files the review quotes (read at its commit) and the pull
// request's facts come in; a verdict, the findings and the reasons go out.
//
// The block is JSON when its first character is "{", YAML otherwise, with
// the same fields: schema_version (1), work_unit ("#N"), verdict (PASS,
// FAIL or NEEDS_EVIDENCE) and summary are required; findings,
// verification, verdicts and evidence_requests may be left out (empty).
// Decoding is strict: an unknown or repeated field, a wrong type, an empty
// string, a missing required field, a YAML alias or tag are problems named
// by their JSON path. A finding has id, severity, requirement, remedy and
// at least one evidence entry; a verification has check, outcome (pass or
// fail) and optional evidence; a judgement ("verdicts" entry) has
// finding_id (a ledger ID, <id>@r<review-id>), verdict (AGREE,
// DISAGREE_EVIDENCE with evidence, or DISAGREE_CONCERN) and optional
// evidence.
//
// Evidence is checked against the frozen bundle (CheckBundle): every quote
// occurs verbatim in its file at the audited commit, and the bundle's
// identity (Bundle.Identity) is recorded with the verdict.
//
// Evaluate walks a pull request's reviews oldest first. A review counts
// when every Rule lets it through (an aep-audit block, submitted and not
// dismissed, never edited, a User who neither opened the pull request nor
// authored or committed any of its commits, listed in auditors when those
// are configured). A counting review whose block, evidence and judgements
// are valid enters the ledger: its findings get ledger IDs and its
// judgements settle earlier findings. A judgement of a finding with a
// disposition pending (proposed with the dispose command after the
// finding's thread last moved) closes it on AGREE and rejects the
// disposition otherwise; a judgement of a finding with none pending
// refutes it on DISAGREE_EVIDENCE, and changes nothing on AGREE (the
// finding is confirmed) or DISAGREE_CONCERN (a concern never refutes an
// evidenced finding). Only a counting review closes a finding, so whoever
// wrote the change never closes one.
//
// The newest counting review decides, bound to its commit: for an older
// commit the audit is stale. Before that, the bounds: more commits with a
// FAIL than limits.corrections allows (a FAIL counts once its block
// parses, whatever its evidence, and a dismissed one still counts), a
// FAIL's finding that repeats the root cause of a finding made at another
// commit (the same requirement after folding case and spacing, or the
// same quote of the same file), a rejected disposition of a blocking
// finding with no new commit since the previous review of the finding (an
// UNRESOLVED dispute), or more than limits.exchanges exchanges on an open
// blocking finding (the finding, each disposition, each judgement) send
// the decision to the owner through an owner gate (OwnerGate). A high-risk
// unit's PASS goes to the owner too. Input.Answers carries the owner's
// answers: approve passes the head, reject fails it.
package review
