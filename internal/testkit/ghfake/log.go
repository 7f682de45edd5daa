package ghfake

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Request is one API call the fake served, as the request log keeps it.
type Request struct {
	Method       string // GET, POST, …
	Path         string // as requested, without the query
	Query        string // raw query string
	Pattern      string // the route pattern, e.g. "POST /repos/{owner}/{repo}/check-runs"
	Status       int    // the status answered (0 for a dropped connection)
	Write        bool   // anything but GET/HEAD
	Installation int64  // the installation whose token was used, or 0
	App          int64  // the App acting (JWT, installation or actions token), or 0
	User         string // the user of a personal token
	Fault        string // the fault injected instead of serving, if any
	Time         time.Time
	// Mutations are the GraphQL mutations the request ran (none for a
	// query), in order, each applied or refused.
	Mutations []Mutation
}

// Mutation is one GraphQL mutation field a request ran.
type Mutation struct {
	Name string // the Mutation field, e.g. "enqueuePullRequest"
	Err  string // the error it answered; "" when it was applied
}

// String is "METHOD /path -> status", followed by the mutations run, e.g.
// "POST /graphql -> 200 [enqueuePullRequest]" or "[dequeuePullRequest
// refused: …]".
func (r Request) String() string {
	s := fmt.Sprintf("%s %s -> %d", r.Method, r.Path, r.Status)
	if r.Fault != "" {
		s += " (fault: " + r.Fault + ")"
	}
	for _, m := range r.Mutations {
		s += " [" + m.Name
		if m.Err != "" {
			s += " refused: " + m.Err
		}
		s += "]"
	}
	return s
}

// Stats counts the requests served so far.
type Stats struct {
	Total          int
	Reads          int
	Writes         int
	ByRoute        map[string]int // by route pattern
	ByInstallation map[int64]int
	NotModified    int // 304 answers
	Faults         int // requests answered by an injected fault
}

func isWrite(method string) bool { return method != http.MethodGet && method != http.MethodHead }

// record appends c's request to the log; callers hold mu.
func (f *Fake) record(c *call, status int) {
	req := Request{
		Method: c.r.Method, Path: c.r.URL.Path, Query: c.r.URL.RawQuery, Pattern: c.pattern,
		Status: status, Write: isWrite(c.r.Method), Time: f.clock(), Fault: c.fault, Mutations: c.mutations,
	}
	if c.app != nil {
		req.App = c.app.ID
	}
	if t := c.tok; t != nil {
		if t.inst != nil {
			req.Installation = t.inst.ID
		}
		if t.app != nil {
			req.App = t.app.ID
		}
		if t.user != nil {
			req.User = t.user.login
		}
	}
	f.reqs = append(f.reqs, req)
}

// Requests returns a copy of the request log, oldest first.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// Writes lists every write request made (POST, PATCH, PUT, DELETE) that
// reached a handler — including those whose answer a FaultLostResponse
// then lost — oldest first: what a test checks to prove an evaluation
// wrote nothing, or only what it should, or nothing twice.
func (f *Fake) Writes() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Request
	for _, r := range f.reqs {
		if r.Write && (r.Fault == "" || r.Fault == string(FaultLostResponse)) {
			out = append(out, r)
		}
	}
	return out
}

// WriteLog renders Writes one per line ("POST /repos/… -> 201"), for
// failure messages and golden files.
func (f *Fake) WriteLog() string {
	var sb strings.Builder
	for _, r := range f.Writes() {
		sb.WriteString(r.String())
		sb.WriteByte('\n')
	}
	return sb.String()
}

// VerifyWrites fails t unless the writes made so far are exactly patterns
// (route patterns, in order), listing what was written when they differ.
func (f *Fake) VerifyWrites(t TB, patterns ...string) {
	t.Helper()
	ws := f.Writes()
	ok := len(ws) == len(patterns)
	for i := 0; ok && i < len(ws); i++ {
		ok = ws[i].Pattern == patterns[i]
	}
	if !ok {
		t.Errorf("ghfake: writes made:\n%swant patterns:\n  %s", f.WriteLog(), strings.Join(patterns, "\n  "))
	}
}

// Mutations lists the GraphQL mutations run so far, applied and refused,
// oldest first.
func (f *Fake) Mutations() []Mutation {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Mutation
	for _, r := range f.reqs {
		out = append(out, r.Mutations...)
	}
	return out
}

// VerifyMutations fails t unless the GraphQL mutations applied so far (the
// refused ones left out) are exactly names, in order — VerifyWrites for
// what GraphQL wrote, since every GraphQL request is a POST.
func (f *Fake) VerifyMutations(t TB, names ...string) {
	t.Helper()
	var got []string
	for _, m := range f.Mutations() {
		if m.Err == "" {
			got = append(got, m.Name)
		}
	}
	if strings.Join(got, "\n") != strings.Join(names, "\n") {
		t.Errorf("ghfake: mutations applied:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(names, "\n  "))
	}
}

// Calls counts the requests served for one route pattern, e.g.
// "GET /repos/{owner}/{repo}/commits/{ref}/check-runs".
func (f *Fake) Calls(pattern string) int {
	return f.Stats().ByRoute[pattern]
}

// Stats summarises the request log.
func (f *Fake) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := Stats{ByRoute: map[string]int{}, ByInstallation: map[int64]int{}}
	for _, r := range f.reqs {
		s.Total++
		if r.Write {
			s.Writes++
		} else {
			s.Reads++
		}
		s.ByRoute[r.Pattern]++
		if r.Installation != 0 {
			s.ByInstallation[r.Installation]++
		}
		if r.Status == http.StatusNotModified {
			s.NotModified++
		}
		if r.Fault != "" {
			s.Faults++
		}
	}
	return s
}

// ResetLog forgets every request logged so far (state is kept), so a test
// can count only what comes next.
func (f *Fake) ResetLog() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = nil
}
