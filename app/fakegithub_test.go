package app

import (
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// fakeGitHub is a small stateful GitHub for the App's end-to-end tests:
// App JWT and installation tokens, check runs (REST) and the App's two
// GraphQL queries, over one repository. It counts reads and writes, can
// inject faults, and records every check-run write so tests can prove none
// was duplicated. (internal/ghfake covers REST broadly; its GraphQL slice
// was not available when these tests were written.)
type fakeGitHub struct {
	t      testing.TB
	srv    *httptest.Server
	appKey *rsa.PublicKey
	appID  int64
	owner  string
	repo   string

	mu         sync.Mutex
	config     *string
	prs        map[int]*fakePR
	issues     map[int]*fakeIssue
	milestones map[int]*fakeMilestone
	runs       []*fakeRun
	reads      int
	writes     int
	creates    map[string]int // name@head → creates
	faultRate  float64
	faults     int
	// gqlDelay slows every GraphQL answer (outside the lock).
	gqlDelay time.Duration
	rng      *rand.Rand
}

type fakePR struct {
	Body, Head string
	Open       bool
}

type fakeIssue struct {
	Title, Body string
	Open        bool
	Milestone   int
	BlockedBy   []int
}

type fakeMilestone struct {
	Title, Description string
	Open               bool
}

type fakeRun struct {
	ID                                         int64
	Name, Head, ExternalID, Status, Conclusion string
	Title, Summary, Text                       string
}

func newFakeGitHub(t testing.TB, appID int64, key *rsa.PublicKey) *fakeGitHub {
	f := &fakeGitHub{t: t, appKey: key, appID: appID, owner: "acme", repo: "app",
		prs: map[int]*fakePR{}, issues: map[int]*fakeIssue{}, milestones: map[int]*fakeMilestone{},
		creates: map[string]int{}, rng: rand.New(rand.NewPCG(1, 2))}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGitHub) URL() string { return f.srv.URL + "/" }

var (
	tokenPath = regexp.MustCompile(`^/app/installations/(\d+)/access_tokens$`)
	listRuns  = regexp.MustCompile(`^/repos/[^/]+/[^/]+/commits/([0-9a-f]+)/check-runs$`)
	runPath   = regexp.MustCompile(`^/repos/[^/]+/[^/]+/check-runs(?:/(\d+))?$`)
)

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	delay := f.gqlDelay
	f.mu.Unlock()
	if delay > 0 && strings.HasSuffix(r.URL.Path, "/graphql") {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// gh.NewClient treats a bare host as GHES: /api/v3/ and /api/graphql.
	r.URL.Path = strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/api/v3"), "/api")
	if r.Method == http.MethodGet || r.URL.Path == "/graphql" {
		f.reads++
	} else if !strings.HasSuffix(r.URL.Path, "/access_tokens") {
		f.writes++
	}
	if f.faultRate > 0 && !strings.HasPrefix(r.URL.Path, "/app") && f.rng.Float64() < f.faultRate {
		f.faults++
		if f.rng.IntN(2) == 0 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusForbidden, map[string]any{"message": "You have exceeded a secondary rate limit."})
		return
	}
	switch {
	case r.Method == http.MethodPost && tokenPath.MatchString(r.URL.Path):
		f.token(w, r)
	case !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ghs_"):
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Bad credentials"})
	case r.Method == http.MethodGet && listRuns.MatchString(r.URL.Path):
		f.listRuns(w, r, listRuns.FindStringSubmatch(r.URL.Path)[1])
	case runPath.MatchString(r.URL.Path) && (r.Method == http.MethodPost || r.Method == http.MethodPatch):
		f.writeRun(w, r, runPath.FindStringSubmatch(r.URL.Path)[1])
	case r.Method == http.MethodPost && r.URL.Path == "/graphql":
		f.graphql(w, r)
	case r.URL.Path == "/installation/repositories":
		writeJSON(w, 200, map[string]any{"total_count": 1, "repositories": []any{map[string]any{"name": f.repo, "full_name": f.owner + "/" + f.repo, "owner": map[string]any{"login": f.owner}}}})
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found " + r.URL.Path})
	}
}

func (f *fakeGitHub) token(w http.ResponseWriter, r *http.Request) {
	raw := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	claims := jwt.RegisteredClaims{}
	_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return f.appKey, nil }, jwt.WithValidMethods([]string{"RS256"}))
	if err != nil || claims.Issuer != strconv.FormatInt(f.appID, 10) {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "A JSON web token could not be decoded"})
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"token": "ghs_" + strconv.FormatInt(time.Now().UnixNano(), 36), "expires_at": time.Now().Add(time.Hour).Format(time.RFC3339)})
}

func (f *fakeGitHub) listRuns(w http.ResponseWriter, r *http.Request, head string) {
	name := r.URL.Query().Get("check_name")
	var out []any
	for _, run := range f.runs {
		if run.Head == head && (name == "" || run.Name == name) {
			out = append(out, run.json(f.appID))
		}
	}
	writeJSON(w, 200, map[string]any{"total_count": len(out), "check_runs": out})
}

func (f *fakeGitHub) writeRun(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Name       string
		HeadSHA    string `json:"head_sha"`
		ExternalID string `json:"external_id"`
		Status     string
		Conclusion string
		Output     struct{ Title, Summary, Text string }
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSON(w, 422, map[string]any{"message": err.Error()})
		return
	}
	var run *fakeRun
	if id == "" {
		run = &fakeRun{ID: int64(len(f.runs) + 1), Name: in.Name, Head: in.HeadSHA}
		f.runs = append(f.runs, run)
		f.creates[run.Name+"@"+run.Head]++
	} else {
		n, _ := strconv.Atoi(id)
		if n < 1 || n > len(f.runs) {
			writeJSON(w, 404, map[string]any{"message": "Not Found"})
			return
		}
		run = f.runs[n-1]
	}
	run.ExternalID, run.Status, run.Conclusion = in.ExternalID, in.Status, in.Conclusion
	run.Title, run.Summary, run.Text = in.Output.Title, in.Output.Summary, in.Output.Text
	writeJSON(w, 201, run.json(f.appID))
}

func (r *fakeRun) json(appID int64) map[string]any {
	return map[string]any{"id": r.ID, "name": r.Name, "head_sha": r.Head, "external_id": r.ExternalID,
		"status": r.Status, "conclusion": r.Conclusion, "app": map[string]any{"id": appID},
		"output": map[string]any{"title": r.Title, "summary": r.Summary, "text": r.Text, "annotations_count": 0}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// counts returns reads, writes and faults so far.
func (f *fakeGitHub) counts() (reads, writes, faults int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads, f.writes, f.faults
}

// run returns the newest run named name on head, or nil.
func (f *fakeGitHub) run(name, head string) *fakeRun {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.runs) - 1; i >= 0; i-- {
		if r := f.runs[i]; r.Name == name && r.Head == head {
			c := *r
			return &c
		}
	}
	return nil
}

// duplicates lists name@head keys created more than once.
func (f *fakeGitHub) duplicates() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for k, n := range f.creates {
		if n > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", k, n))
		}
	}
	return out
}

func (f *fakeGitHub) setFaultRate(p float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faultRate = p
}
