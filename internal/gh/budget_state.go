package gh

// BudgetState is what one installation's budget shows: the primary limit
// left as GitHub last reported it (less the calls sent since), by resource
// ("core", "graphql"; absent until GitHub's first answer gives it), and the
// calls waiting, by priority.
type BudgetState struct {
	Installation int64
	Remaining    map[string]int
	Waiting      map[Priority]int
}

// state snapshots b.
func (b *budget) state() BudgetState {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := BudgetState{Remaining: map[string]int{}, Waiting: map[Priority]int{}}
	for r, st := range b.primary {
		if st.known {
			s.Remaining[r] = max(0, st.remaining)
		}
	}
	for p, q := range b.queues {
		s.Waiting[Priority(p)] = len(q)
	}
	return s
}

// BudgetStates snapshots the budget of every installation used so far.
func (c *Clients) BudgetStates() []BudgetState {
	c.mu.Lock()
	insts := make([]*Installation, 0, len(c.insts))
	for _, in := range c.insts {
		insts = append(insts, in)
	}
	c.mu.Unlock()
	out := make([]BudgetState, 0, len(insts))
	for _, in := range insts {
		s := in.budget.state()
		s.Installation = in.ID
		out = append(out, s)
	}
	return out
}
