package closurerules

// FinalOwner is closure.final: owner. craft-rules §6.1: session statuses
// end for agents at needs-review, never closed; done is the owner's. A
// certified unit closed by anyone but the owner waits in NeedsReview.
const FinalOwner = "owner"

// WaitingForOwner is what a NeedsReview unit misses.
const WaitingForOwner = "waiting for the owner's closure"

// final is the verdict on a closure with evidence e: done, unless the
// repository runs closure.final: owner (and rules.OwnerFinal applies it)
// and neither the closer was the owner nor an owner said `/aep close`.
func final(f Facts, rules Rules, v Verdict, e string) Verdict {
	v.State, v.Evidence = Done, e
	if !rules.OwnerFinal || f.Final != FinalOwner {
		return v
	}
	o := OwnerClosed(f, rules)
	if o == "" {
		o = OwnerCommand(f, rules)
	}
	switch {
	case o == "":
		v.State, v.Missing = NeedsReview, WaitingForOwner
	case o != e:
		v.Evidence = e + "; final closure: " + o
	}
	return v
}
