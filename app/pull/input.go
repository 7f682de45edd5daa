package pull

import "github.com/aepgate/aepgate/app/verdict"

// Input is one judgement's context for the ledger and what it answers.
type Input struct {
	Delivery, Event, Owner, Repo string
	PR                           int
	Guesses                      []int
	// Answer is the comment or review whose requests this judgement
	// answers (0: none), the one the delivery was about.
	Answer int64
	// Siblings asks for the unit's other open pull requests to be judged
	// after this one (the conversation changed).
	Siblings bool
	// Witness is the delivery's created comment as GitHub sent it, nil for
	// none.
	Witness *verdict.Witness
	// Sweep is set for the periodic sweep's judgements, which also answer
	// the comments whose deliveries were lost.
	Sweep bool
	// Once answers only an item never answered (an edited comment).
	Once bool
	// Roles are the live roles this job has read, shared by the
	// judgements of one Open; nil reads them per judgement.
	Roles *Roles
}

// Origin is where the judgement's ledger rows come from.
func (in Input) Origin() verdict.Origin {
	return verdict.Origin{Delivery: in.Delivery, Event: in.Event, Owner: in.Owner, Repo: in.Repo, PR: in.PR}
}

// FullName is the repository, "owner/name".
func (in Input) FullName() string { return in.Owner + "/" + in.Repo }
