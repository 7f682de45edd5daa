package attest

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// The tokens of the repository binding.
const (
	// TokenSubjectRepository: the statement's subject does not name the
	// repository the certificate's own repository field names (or one of
	// them names none), so the certificate is not bound to a repository.
	TokenSubjectRepository = "subject-repository-mismatch"
	// TokenRepository: the certificate is about another repository than
	// the one the verifier asked for (Want.Repository).
	TokenRepository = "repository-mismatch"
)

// SubjectRepository is the repository (OWNER/NAME) a commit subject's name
// names: https://HOST/OWNER/NAME/commit/SHA with SHA its gitCommit digest,
// as CommitSubject writes it. It is "" for any other name.
func SubjectRepository(s Subject) string {
	rest, ok := strings.CutPrefix(s.Name, "https://")
	if !ok {
		return ""
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 5 || parts[0] == "" || parts[1] == "" || parts[2] == "" || parts[3] != "commit" || parts[4] != s.Digest["gitCommit"] {
		return ""
	}
	return parts[1] + "/" + parts[2]
}

// ruleSubjectRepository refuses a statement whose subject does not name
// the repository its certificate names (the predicate's repository): the
// signature then binds the commit to that one repository, whose name a
// verifier can compare (ruleRepositoryWanted). GitHub's names are
// case-insensitive, so case is ignored.
func ruleSubjectRepository(v *verification) *refusal.Refusal {
	var name string
	if len(v.stmt.Subject) == 1 {
		name = v.stmt.Subject[0].Name
	}
	pred, _ := v.stmt.Predicate["repository"].(string)
	if v.repository == "" || pred == "" || !strings.EqualFold(v.repository, pred) {
		return refuse(TokenSubjectRepository, "a subject https://github.com/OWNER/NAME/commit/SHA naming the certificate's repository "+quoted(pred),
			"subject "+quoted(name))
	}
	return nil
}

// ruleRepositoryWanted refuses a statement whose subject names another
// repository than the one the verifier asked for (ruleSubjectRepository
// has made it the certificate's own): a fork holds the same commits, so a
// commit SHA alone does not say which repository was certified.
func ruleRepositoryWanted(v *verification) *refusal.Refusal {
	if v.want.Repository != "" && !strings.EqualFold(v.want.Repository, v.repository) {
		return refuse(TokenRepository, "a certificate about repository "+v.want.Repository, "a certificate about repository "+v.repository)
	}
	return nil
}

func quoted(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
