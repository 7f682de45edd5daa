package gh

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v62/github"
)

// checksFake is a small stateful stand-in for GitHub's check-run endpoints,
// enough to test the publisher's request sequence in isolation. (End-to-end
// tests use internal/testkit/ghfake.)
type checksFake struct {
	mu       sync.Mutex
	runs     []*fakeRun
	requests []string // "METHOD path" in order
	queries  []string // the raw query of each request
	// status, when set, answers every request with this status and headers.
	status  int
	headers map[string]string
}

type fakeRun struct {
	run  github.CheckRun
	anns []*github.CheckRunAnnotation
}

func newChecksFake(t *testing.T) (*checksFake, *github.Client) {
	t.Helper()
	f := &checksFake{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := NewTokenClient(srv.URL+"/api/v3/", "test-token", nil)
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func (f *checksFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/api/v3")
	f.requests = append(f.requests, r.Method+" "+path)
	f.queries = append(f.queries, r.URL.RawQuery)
	if f.status != 0 {
		for k, v := range f.headers {
			w.Header().Set(k, v)
		}
		w.WriteHeader(f.status)
		fmt.Fprint(w, `{"message":"refused by the test"}`)
		return
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case r.Method == http.MethodGet && len(parts) == 6 && parts[3] == "commits":
		f.list(w, r, parts[4])
	case r.Method == http.MethodPost && len(parts) == 4 && parts[3] == "check-runs":
		f.create(w, r)
	case r.Method == http.MethodPatch && len(parts) == 5:
		f.update(w, r, parts[4])
	case r.Method == http.MethodGet && len(parts) == 6 && parts[5] == "annotations":
		f.annotations(w, parts[4])
	default:
		http.NotFound(w, r)
	}
}

func (f *checksFake) list(w http.ResponseWriter, r *http.Request, ref string) {
	name := r.URL.Query().Get("check_name")
	res := github.ListCheckRunsResults{CheckRuns: []*github.CheckRun{}}
	for _, fr := range f.runs {
		if fr.run.GetHeadSHA() == ref && (name == "" || fr.run.GetName() == name) {
			cr := fr.run
			res.CheckRuns = append(res.CheckRuns, &cr)
		}
	}
	res.Total = github.Int(len(res.CheckRuns))
	json.NewEncoder(w).Encode(res)
}

func (f *checksFake) create(w http.ResponseWriter, r *http.Request) {
	var in github.CreateCheckRunOptions
	json.NewDecoder(r.Body).Decode(&in)
	fr := &fakeRun{run: github.CheckRun{
		ID: github.Int64(int64(len(f.runs) + 1)), Name: &in.Name, HeadSHA: &in.HeadSHA,
		ExternalID: in.ExternalID, DetailsURL: in.DetailsURL, Status: in.Status, Conclusion: in.Conclusion,
	}}
	f.runs = append(f.runs, fr)
	fr.apply(in.Output)
	json.NewEncoder(w).Encode(fr.run)
}

func (f *checksFake) update(w http.ResponseWriter, r *http.Request, idText string) {
	id, _ := strconv.Atoi(idText)
	if id < 1 || id > len(f.runs) {
		http.NotFound(w, r)
		return
	}
	var in github.UpdateCheckRunOptions
	json.NewDecoder(r.Body).Decode(&in)
	fr := f.runs[id-1]
	fr.run.Status, fr.run.Conclusion, fr.run.ExternalID = in.Status, in.Conclusion, in.ExternalID
	fr.apply(in.Output)
	json.NewEncoder(w).Encode(fr.run)
}

// apply stores output the way GitHub does: annotations are appended.
func (fr *fakeRun) apply(out *github.CheckRunOutput) {
	if out == nil {
		return
	}
	fr.anns = append(fr.anns, out.Annotations...)
	fr.run.Output = &github.CheckRunOutput{
		Title: out.Title, Summary: out.Summary, Text: out.Text,
		AnnotationsCount: github.Int(len(fr.anns)),
	}
}

func (f *checksFake) annotations(w http.ResponseWriter, idText string) {
	id, _ := strconv.Atoi(idText)
	anns := f.runs[id-1].anns
	if anns == nil {
		anns = []*github.CheckRunAnnotation{}
	}
	json.NewEncoder(w).Encode(anns)
}

// writes counts POST and PATCH requests.
func (f *checksFake) writes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.requests {
		if strings.HasPrefix(r, "POST") || strings.HasPrefix(r, "PATCH") {
			n++
		}
	}
	return n
}
