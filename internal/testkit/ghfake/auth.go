package ghfake

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Permissions maps GitHub App permission names ("checks", "contents",
// "issues", "pull_requests", "actions", "metadata", …) to "read", "write" or
// "admin".
type Permissions map[string]string

func level(s string) int {
	switch s {
	case "read":
		return 1
	case "write":
		return 2
	case "admin":
		return 3
	}
	return 0
}

// allows reports whether p grants need.
func (p Permissions) allows(need access) bool {
	if need.scope == "metadata" && !need.write {
		return true // every installation may read metadata
	}
	want := 1
	if need.write {
		want = 2
	}
	return level(p[need.scope]) >= want
}

type tokenKind int

const (
	installationToken tokenKind = iota + 1
	actionsToken
	userToken
)

// token is a credential the fake issued and later requests carry.
type token struct {
	value   string
	kind    tokenKind
	app     *App          // the App acting (the github-actions App for actions tokens)
	inst    *Installation // installation tokens
	user    *user         // user tokens
	perms   Permissions
	repos   map[string]bool // lower-case full names; nil means every repo of the account
	expires time.Time       // zero: never
}

// ActionsAppID is the github-actions App's ID, which owns check runs made
// with a workflow's GITHUB_TOKEN.
const ActionsAppID = 15368

// NewAppKey returns a fresh 2048-bit RSA key for a test App (the private key
// signs JWTs; its public half is what the fake checks them against).
func NewAppKey() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(fmt.Sprintf("ghfake: generate RSA key: %v", err))
	}
	return k
}

// KeyPEM encodes key as the PKCS#1 PEM file GitHub lets an App download.
func KeyPEM(key *rsa.PrivateKey) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
}

// SignAppJWT signs the JWT an App sends (iss = appID, iat 60 s ago, exp 9
// minutes ahead of now), as a real App client would.
func SignAppJWT(key *rsa.PrivateKey, appID int64, now time.Time) string {
	claims := jwt.MapClaims{
		"iss": strconv.FormatInt(appID, 10),
		"iat": now.Add(-60 * time.Second).Unix(),
		"exp": now.Add(9 * time.Minute).Unix(),
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(key)
	if err != nil {
		panic(fmt.Sprintf("ghfake: sign JWT: %v", err))
	}
	return s
}

func randomToken(prefix string) string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("ghfake: random token: %v", err))
	}
	return prefix + hex.EncodeToString(b)
}

// authenticate finds who is calling. App routes need the App's JWT; public
// routes need nothing; every other route needs a token the fake issued.
func (c *call) authenticate(need access) (int, any) {
	if need.scope == scopePublic {
		return 0, nil
	}
	cred := bearer(c.r.Header.Get("Authorization"))
	if need.scope == scopeApp {
		app, msg := c.f.verifyJWT(cred)
		if app == nil {
			return apiError(http.StatusUnauthorized, msg)
		}
		c.app = app
		return 0, nil
	}
	if cred == "" {
		return apiError(http.StatusUnauthorized, "Requires authentication")
	}
	t := c.f.tokens[cred]
	if t == nil {
		if strings.Count(cred, ".") == 2 {
			return apiError(http.StatusUnauthorized, "A JSON web token cannot be used to access this resource; use an installation access token")
		}
		return apiError(http.StatusUnauthorized, "Bad credentials")
	}
	if !t.expires.IsZero() && !c.f.clock().Before(t.expires) {
		return apiError(http.StatusUnauthorized, "Bad credentials")
	}
	c.tok = t
	return 0, nil
}

// bearer extracts the credential from "Bearer x" or "token x".
func bearer(h string) string {
	for _, p := range []string{"Bearer ", "bearer ", "token ", "Token "} {
		if strings.HasPrefix(h, p) {
			return strings.TrimSpace(h[len(p):])
		}
	}
	return ""
}

// canSee reports whether the caller may see repo at all (GitHub answers 404,
// not 403, for repositories a token cannot reach).
func (c *call) canSee(repo *repoState) bool {
	switch {
	case c.app != nil:
		return true
	case c.tok == nil:
		return true
	case c.tok.kind == userToken:
		return !repo.private || repo.perms[strings.ToLower(c.tok.user.login)] != ""
	case c.tok.repos != nil:
		return c.tok.repos[strings.ToLower(repo.fullName)]
	default:
		return c.tok.inst != nil && strings.EqualFold(c.tok.inst.Account, repo.owner.login)
	}
}

// protections are the fake's checks a negative-control test may remove to
// watch the attack they stop succeed; New turns them all on.
type protections struct {
	// permissions refuses a token's call outside its permissions.
	permissions bool
	// signatures verifies App JWTs against the App's key.
	signatures bool
}

// authorize checks the route's permission against the caller's token.
func (c *call) authorize(need access) (int, any) {
	if c.tok == nil || need.scope == "graphql" { // GraphQL checks per field
		return 0, nil
	}
	if c.tok.kind == userToken {
		if !need.write {
			return 0, nil
		}
		if c.repo != nil && level(userLevel(c.repo.perms[strings.ToLower(c.tok.user.login)])) >= 2 {
			return 0, nil
		}
		if c.repo == nil || (need.byReader && c.canSee(c.repo)) {
			return 0, nil
		}
		return apiError(http.StatusForbidden, "Must have write access to this repository.")
	}
	if c.f.protect.permissions && !c.tok.perms.allows(need) && !c.prAsIssue(need) {
		return apiError(http.StatusForbidden, "Resource not accessible by integration")
	}
	return 0, nil
}

// userLevel folds a collaborator role into read/write/admin.
func userLevel(role string) string {
	switch role {
	case "admin":
		return "admin"
	case "maintain", "write":
		return "write"
	case "triage", "read":
		return "read"
	}
	return ""
}

// verifyJWT checks an App JWT as GitHub does: RS256 signed by a registered
// App's key, iss naming that App, iat not in the future, exp in the future
// but no more than ten minutes ahead. It returns the App or GitHub's message.
func (f *Fake) verifyJWT(raw string) (*App, string) {
	if raw == "" {
		return nil, "A JSON web token could not be decoded"
	}
	var app *App
	claims := jwt.MapClaims{}
	if !f.protect.signatures {
		_, _, err := jwt.NewParser().ParseUnverified(raw, claims)
		iss, _ := claims.GetIssuer()
		if app = f.appByIssuer(iss); err != nil || app == nil {
			return nil, "A JSON web token could not be decoded"
		}
		return app, ""
	}
	_, err := jwt.ParseWithClaims(raw, claims, func(t *jwt.Token) (any, error) {
		iss, _ := claims.GetIssuer()
		app = f.appByIssuer(iss)
		if app == nil {
			return nil, fmt.Errorf("unknown issuer %q", iss)
		}
		return &app.Key.PublicKey, nil
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithoutClaimsValidation())
	if err != nil || app == nil {
		return nil, "A JSON web token could not be decoded"
	}
	if msg := f.checkTimes(claims); msg != "" {
		return nil, msg
	}
	return app, ""
}

// checkTimes validates iat/exp against the fake's clock; it returns "" when
// they are acceptable, else GitHub's message (and the caller refuses).
func (f *Fake) checkTimes(claims jwt.MapClaims) string {
	now := f.clock()
	iat, err1 := claims.GetIssuedAt()
	exp, err2 := claims.GetExpirationTime()
	switch {
	case err1 != nil || iat == nil:
		return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued"
	case err2 != nil || exp == nil:
		return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires"
	case iat.After(now.Add(time.Second)):
		return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued"
	case !exp.After(now):
		return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires"
	case exp.After(now.Add(10 * time.Minute)): // "no more than 10 minutes into the future"
		return "'Expiration time' claim ('exp') is too far in the future"
	}
	return ""
}

func (f *Fake) appByIssuer(iss string) *App {
	for _, a := range f.apps {
		if iss == strconv.FormatInt(a.ID, 10) || (a.ClientID != "" && iss == a.ClientID) {
			return a
		}
	}
	return nil
}

// prAsIssue lets pull_requests permission stand in for issues on a pull
// request's issue routes (comments, labels, reactions), as GitHub does.
func (c *call) prAsIssue(need access) bool {
	if need.scope != "issues" || c.repo == nil {
		return false
	}
	n, err := strconv.Atoi(c.r.PathValue("issue_number"))
	if err != nil {
		return false
	}
	i := c.repo.issue(n)
	return i != nil && i.pr != nil && c.tok.perms.allows(access{scope: "pull_requests", write: need.write})
}
