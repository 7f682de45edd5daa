package ghfake

// CloseBy closes the milestone as login did in the web UI, sending
// milestone.closed with login as its sender; a closed milestone is left
// as it is.
func (m *Milestone) CloseBy(login string) { m.setState(login, "closed") }

// ReopenBy reopens the milestone as login did, sending milestone.opened.
func (m *Milestone) ReopenBy(login string) { m.setState(login, "open") }

// Open reports whether the milestone is open now.
func (m *Milestone) Open() bool {
	m.r.f.mu.Lock()
	defer m.r.f.mu.Unlock()
	return m.r.s.milestone(m.n).state == "open"
}

func (m *Milestone) setState(login, state string) {
	f := m.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	ms := m.r.s.milestone(m.n)
	if ms.state == state {
		return
	}
	req := milestoneReq{State: &state}
	req.apply(ms, f.clock())
	action := map[string]string{"open": "opened", "closed": "closed"}[state]
	f.emit(m.r.s, "milestone", action, f.ensureUser(login), obj{"milestone": f.milestoneJSON(m.r.s, ms)})
}
