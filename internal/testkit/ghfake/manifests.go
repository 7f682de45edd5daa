package ghfake

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// manifestCodeLife is how long a manifest code may be converted (GitHub
// docs, "Registering a GitHub App from a manifest": "You must complete
// this step within one hour").
const manifestCodeLife = time.Hour

// manifestCode is one code handed out by the new-App page: single use,
// one hour, for the App it registered and the secrets the conversion
// returns once.
type manifestCode struct {
	app           *App
	pem           string
	webhookSecret string
	expires       time.Time
}

// manifestForm is the part of a posted manifest the fake acts on.
type manifestForm struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	RedirectURL string `json:"redirect_url"`
	Description string `json:"description"`
	Hook        struct {
		URL string `json:"url"`
	} `json:"hook_attributes"`
	DefaultEvents      []string    `json:"default_events"`
	DefaultPermissions Permissions `json:"default_permissions"`
}

// slugJunk is what GitHub drops from an App's name to make its slug.
var slugJunk = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

func (f *Fake) manifestRoutes() {
	f.handle("POST /settings/apps/new", access{scope: scopePublic}, newAppFromManifest)
	f.handle("POST /organizations/{org}/settings/apps/new", access{scope: scopePublic}, newAppFromManifest)
	f.handle("POST /app-manifests/{code}/conversions", access{scope: scopePublic}, convertManifest)
}

// newAppFromManifest is GitHub's new-App page taking a posted manifest
// (form field "manifest", query "state"): the signed-in user (SignIn)
// confirms at once, the App is registered with a fresh key, and the
// browser is redirected to the manifest's redirect_url with a one-time
// code and the state. GitHub shows an error page where the fake answers
// 4xx: no user signed in, a manifest that is not JSON, no redirect_url.
func newAppFromManifest(c *call) (int, any) {
	if c.f.oauth.signedIn == "" {
		return apiError(http.StatusUnauthorized, "ghfake: no user is signed in (Fake.SignIn)")
	}
	var m manifestForm
	if err := json.Unmarshal([]byte(c.r.PostFormValue("manifest")), &m); err != nil {
		return apiError(http.StatusUnprocessableEntity, "ghfake: the form field manifest is not JSON: "+err.Error())
	}
	back, err := url.Parse(m.RedirectURL)
	if err != nil || back.Scheme == "" || back.Host == "" || strings.TrimSpace(m.Name) == "" {
		return apiError(http.StatusUnprocessableEntity, "ghfake: the manifest needs a name and an absolute redirect_url")
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return apiError(http.StatusInternalServerError, "ghfake: generate key: "+err.Error())
	}
	owner := c.r.PathValue("org")
	if owner == "" {
		owner = c.f.oauth.signedIn
	}
	c.f.ensureUser(owner)
	id := c.f.nextID()
	a := &App{
		ID: id, Slug: strings.Trim(slugJunk().ReplaceAllString(strings.ToLower(m.Name), "-"), "-"), Name: m.Name,
		ClientID: "Iv1." + randomToken("")[:16], Key: key, Owner: owner, f: c.f, created: c.f.clock(),
	}
	c.f.apps[id] = a
	c.f.clientSecret(a)
	if c.f.manifests == nil {
		c.f.manifests = map[string]*manifestCode{}
	}
	code := randomToken("")[:20]
	block := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	c.f.manifests[code] = &manifestCode{app: a, pem: string(block), webhookSecret: randomToken(""), expires: c.f.clock().Add(manifestCodeLife)}
	q := back.Query()
	q.Set("code", code)
	if s := c.r.URL.Query().Get("state"); s != "" {
		q.Set("state", s)
	}
	back.RawQuery = q.Encode()
	http.Redirect(c.w, c.r, back.String(), http.StatusFound)
	return 0, nil
}

// convertManifest serves POST /app-manifests/{code}/conversions (GitHub
// docs: "Create a GitHub App from a manifest"): no authentication, 201 with
// the App and its client ID, client secret, webhook secret and PEM key.
// A code is single use and expires after an hour; an unknown, used or
// expired one is a 404.
func convertManifest(c *call) (int, any) {
	code := c.r.PathValue("code")
	m := c.f.manifests[code]
	if m == nil || !c.f.clock().Before(m.expires) {
		return notFound()
	}
	delete(c.f.manifests, code)
	body := c.f.appJSON(m.app)
	body["client_secret"] = c.f.clientSecret(m.app)
	body["webhook_secret"] = m.webhookSecret
	body["pem"] = m.pem
	return http.StatusCreated, body
}

// AppBySlug is the registered App whose slug is slug, or nil.
func (f *Fake) AppBySlug(slug string) *App {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.apps {
		if a.Slug == slug {
			return a
		}
	}
	return nil
}
