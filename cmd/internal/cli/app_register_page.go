package cli

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// registrar is app register's local page: it posts the manifest to
// GitHub and takes GitHub's callback.
type registrar struct {
	local, state, githubURL string
	// view is what the page shows, the form's target and manifest with it.
	view      registerView
	files     secretFiles
	publicURL string
	// rules judge each callback before its code is converted
	// (callbackRules unless a test removed one).
	rules []callbackRule
	// hc carries the conversion request.
	hc *http.Client

	mu   sync.Mutex
	used bool
	done chan registerResult
}

// registerResult ends the command: a registration or the error that
// stopped it.
type registerResult struct {
	reg registration
	err error
}

// callbackRule refuses a callback (query q) that the registrar r must not
// act on, saying why.
type callbackRule func(r *registrar, q url.Values) error

// callbackRules are the checks every callback passes: it brings back the
// state this page sent (so no other page can hand it a code of another
// App), a code, and it is the first to do so (a replayed or second
// callback never converts a code, nor replaces the files written).
// firstCallback claims the page, so it comes last.
var callbackRules = []callbackRule{stateMatches, hasCode, firstCallback}

func stateMatches(r *registrar, q url.Values) error {
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(r.state)) != 1 {
		return errors.New("the state is not the one this page sent to GitHub: the code is not converted")
	}
	return nil
}

func hasCode(_ *registrar, q url.Values) error {
	if q.Get("code") == "" {
		return errors.New("GitHub sent no code")
	}
	return nil
}

func firstCallback(r *registrar, _ url.Values) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.used {
		return errAlreadyRegistered
	}
	r.used = true
	return nil
}

// newRegistrar builds the page for local (http://127.0.0.1:PORT): the
// manifest redirected to local/callback and the form's target on GitHub.
func newRegistrar(f registerFlags, local string, files secretFiles) (*registrar, error) {
	m, err := f.manifest()
	if err != nil {
		return nil, err
	}
	m.RedirectURL = local + "/callback"
	web, err := gh.WebURL(f.githubURL)
	if err != nil {
		return nil, err
	}
	state, err := newState()
	if err != nil {
		return nil, err
	}
	public, err := serviceURL("--url", f.url)
	if err != nil {
		return nil, err
	}
	target := web + "/settings/apps/new"
	if f.org != "" {
		target = web + "/organizations/" + f.org + "/settings/apps/new"
	}
	view, err := newRegisterView(m, target+"?"+url.Values{"state": {state}}.Encode(), web, f.org)
	if err != nil {
		return nil, err
	}
	return &registrar{
		local: local, state: state, githubURL: f.githubURL, view: view, files: files, publicURL: public,
		rules: callbackRules, hc: &http.Client{Timeout: 30 * time.Second}, done: make(chan registerResult, 1),
	}, nil
}

func (r *registrar) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", r.page)
	mux.HandleFunc("GET /callback", r.callback)
	return mux
}

// page is the one-button form.
func (r *registrar) page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	registerPage().Execute(w, r.view)
}

// callback takes GitHub's redirect: the rules first, then one conversion
// only; its result ends the command.
func (r *registrar) callback(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	for _, rule := range r.rules {
		if err := rule(r, q); err != nil {
			status := http.StatusBadRequest
			if errors.Is(err, errAlreadyRegistered) {
				status = http.StatusGone
			}
			showResult(w, status, resultView{Title: "Refused", Text: err.Error()})
			return
		}
	}
	reg, err := r.convert(req.Context(), q.Get("code"))
	// The page is answered before the command hears of it, so that it
	// reaches the browser before the server stops. Only the first result
	// ends the command.
	defer func() {
		select {
		case r.done <- registerResult{reg: reg, err: err}:
		default:
		}
	}()
	if err != nil {
		showResult(w, http.StatusBadGateway, resultView{Title: "Not registered", Text: err.Error()})
		return
	}
	showResult(w, http.StatusOK, resultView{Title: "Registered", OK: true, Link: reg.InstallURL,
		Text: fmt.Sprintf("App %s (ID %d) is registered; its key and secrets are in %s. Install it on the repositories it guards:", reg.Slug, reg.ID, r.files.dir)})
}

// convert exchanges the code and writes the files.
func (r *registrar) convert(ctx context.Context, code string) (registration, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	app, err := gh.ConvertManifest(ctx, r.githubURL, r.hc, code)
	if err != nil {
		return registration{}, err
	}
	return r.files.write(app, r.githubURL, r.publicURL)
}

func showResult(w http.ResponseWriter, status int, v resultView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	resultPage().Execute(w, v)
}
