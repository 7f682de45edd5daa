package ghfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
)

// access is what a route needs from the caller's token: a permission scope
// (GitHub's App permission names: "checks", "contents", "issues", …) and
// whether it writes. Two pseudo-scopes exist: scopeApp (the App's own JWT)
// and scopePublic (no authentication, e.g. signed asset downloads).
type access struct {
	scope string
	write bool
	// byReader lets a user who can see the repository make the write with
	// a personal token, collaborator or not (reviews and comments: on a
	// public repository anyone may review or comment).
	byReader bool
}

const (
	scopeApp    = "app"
	scopePublic = "public"
)

func read(scope string) access  { return access{scope: scope} }
func write(scope string) access { return access{scope: scope, write: true} }

// participate is write for an App's token, and for a user any read access
// (a collaborator or not, on a repository the user can see).
func participate(scope string) access { return access{scope: scope, write: true, byReader: true} }

// handler serves one route. It returns the status and the value to send as
// JSON; a status of 0 means it wrote the response itself.
type handler func(c *call) (int, any)

// call is one request as a handler sees it: authenticated, its repository
// resolved, the fake's mutex held.
type call struct {
	f       *Fake
	w       http.ResponseWriter
	r       *http.Request
	pattern string
	tok     *token     // nil for app-JWT and public routes
	app     *App       // set for app-JWT routes
	repo    *repoState // set when the pattern has {owner}/{repo}
	// refOverride is the {ref} when one route hands over to another.
	refOverride string
	body        []byte     // the request body once read
	flight      int        // the caller's requests in flight, this one included
	fault       string     // FaultLostResponse when the answer will be lost
	mutations   []Mutation // GraphQL mutations run, for the request log

}

// route is one registered route, kept for the README's route list and tests.
type route struct {
	pattern string
	need    access
}

// handle registers h for pattern ("METHOD /path/{wildcards}") behind the
// fake's authentication, permission, realism and logging layers.
func (f *Fake) handle(pattern string, need access, h handler) {
	f.table = append(f.table, route{pattern: pattern, need: need})
	f.mux.add(pattern, func(w http.ResponseWriter, r *http.Request) {
		f.serve(w, r, pattern, need, h)
	})
}

// Routes lists every route pattern the fake serves, in registration order.
func (f *Fake) Routes() []string {
	out := make([]string, len(f.table))
	for i, r := range f.table {
		out[i] = r.pattern
	}
	return out
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request, pattern string, need access, h handler) {
	flight, leave := f.knobs.secondary.enter(r)
	defer leave()
	r = r.WithContext(context.WithValue(r.Context(), flightKey{}, flight))
	answered, lost := f.injectFault(w, r, pattern)
	if answered {
		return
	}
	if lost {
		// Serve for real into a buffer, then lose the answer: the write
		// happened but the client sees a 502.
		buf := httptest.NewRecorder()
		f.serveLocked(buf, r, pattern, need, h, string(FaultLostResponse))
		writeRaw(w, http.StatusBadGateway, obj{"message": "Server Error"})
		return
	}
	f.serveLocked(w, r, pattern, need, h, "")
}

func (f *Fake) serveLocked(w http.ResponseWriter, r *http.Request, pattern string, need access, h handler, fault string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	flight, _ := r.Context().Value(flightKey{}).(int)
	c := &call{f: f, w: w, r: r, pattern: pattern, fault: fault, flight: flight}
	rec := &statusRecorder{ResponseWriter: w}
	c.w = rec
	defer func() {
		// A bug in the fake must fail the test that met it, not hang it.
		if p := recover(); p != nil {
			f.failLater(fmt.Sprintf("ghfake: panic serving %s %s: %v", r.Method, r.URL.Path, p))
			if rec.status == 0 {
				writeRaw(rec, http.StatusInternalServerError, obj{"message": fmt.Sprintf("ghfake: panic: %v", p)})
			}
			f.record(c, rec.status)
		}
	}()
	status, body := c.run(need, h)
	if status != 0 {
		c.writeJSON(status, body)
	}
	f.record(c, rec.status)
}

// run authenticates, authorises and then calls h.
func (c *call) run(need access, h handler) (int, any) {
	if status, body := c.authenticate(need); status != 0 {
		return status, body
	}
	if status, body := c.f.spend(c); status != 0 {
		return status, body
	}
	if status, body := c.f.secondaryLimited(c); status != 0 {
		return status, body
	}
	if c.r.PathValue("owner") != "" && c.r.PathValue("repo") != "" {
		c.repo = c.f.repo(c.r.PathValue("owner") + "/" + c.r.PathValue("repo"))
		if c.repo == nil || !c.canSee(c.repo) {
			return notFound()
		}
	}
	if status, body := c.authorize(need); status != 0 {
		return status, body
	}
	return h(c)
}

// flightKey carries a request's flight count from serve to its call.
type flightKey struct{}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the first status written.
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200.
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// writeJSON sends v with status, answering a matching If-None-Match with 304.
func (c *call) writeJSON(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(c.w, "ghfake: encode response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("FAKE:%d", len(c.f.reqs)+1))
	if c.r.Method == http.MethodGet && status == http.StatusOK && c.f.conditional(c, b) {
		return
	}
	c.w.WriteHeader(status)
	if status != http.StatusNoContent {
		_, _ = c.w.Write(b)
	}
}

// decode reads the JSON request body into v.
func (c *call) decode(v any) error {
	if c.body == nil {
		b, err := io.ReadAll(io.LimitReader(c.r.Body, 100<<20))
		if err != nil {
			return fmt.Errorf("read body: %w", err)
		}
		c.body = b
	}
	b := c.body
	if len(strings.TrimSpace(string(b))) == 0 {
		return errors.New("empty body")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("problems parsing JSON: %w", err)
	}
	return nil
}

// obj is a JSON object under construction.
type obj = map[string]any

const docsRoot = "https://docs.github.com/rest"

func apiError(status int, msg string) (int, any) {
	return status, obj{"message": msg, "documentation_url": docsRoot, "status": fmt.Sprint(status)}
}

func notFound() (int, any) { return apiError(http.StatusNotFound, "Not Found") }

func badJSON(err error) (int, any) {
	return apiError(http.StatusBadRequest, "Problems parsing JSON: "+err.Error())
}

// invalid is GitHub's 422 "Validation Failed" with one error entry.
func invalid(resource, field, code, msg string) (int, any) {
	e := obj{"resource": resource, "field": field, "code": code}
	if msg != "" {
		e["message"] = msg
	}
	return http.StatusUnprocessableEntity, obj{
		"message":           "Validation Failed",
		"errors":            []any{e},
		"documentation_url": docsRoot,
		"status":            "422",
	}
}

// unprocessable is a 422 with a plain message, as some endpoints send.
func unprocessable(msg string) (int, any) { return apiError(http.StatusUnprocessableEntity, msg) }
