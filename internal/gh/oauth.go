package gh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-github/v62/github"
)

// OAuth is a GitHub App's OAuth web flow: it sends a person to GitHub to
// sign in, exchanges the code GitHub returns for a user access token, and
// reads what that token may see (UserAccess). The token is returned to the
// caller and never logged or kept here.
//
// https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-user-access-token-for-a-github-app
type OAuth struct {
	clientID, clientSecret string
	webURL, apiURL         string
	hc                     *http.Client
}

// NewOAuth returns the flow of the App with clientID and clientSecret on
// the GitHub whose REST root is apiURL ("" or DefaultBaseURL: github.com).
// hc may be nil.
func NewOAuth(apiURL, clientID, clientSecret string, hc *http.Client) (*OAuth, error) {
	web, err := WebURL(apiURL)
	if err != nil {
		return nil, err
	}
	if clientID == "" || clientSecret == "" {
		return nil, errors.New("oauth: a client ID and a client secret are required")
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	return &OAuth{clientID: clientID, clientSecret: clientSecret, webURL: web, apiURL: apiURL, hc: hc}, nil
}

// WebURL is the web root (no trailing slash) beside a REST root, where
// GitHub's sign-in pages live: https://github.com for github.com's API,
// https://HOST for a GHES root https://HOST/api/v3/, and a test server's
// own root otherwise.
func WebURL(apiURL string) (string, error) {
	if apiURL == "" || apiURL == DefaultBaseURL {
		return "https://github.com", nil
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("oauth: GitHub URL %q is not an absolute URL", apiURL)
	}
	if u.Host == "api.github.com" {
		return "https://github.com", nil
	}
	p := strings.TrimSuffix(u.Path, "/")
	p = strings.TrimSuffix(p, "/api/v3")
	return u.Scheme + "://" + u.Host + p, nil
}

// AuthorizeURL is GitHub's sign-in page for the App, which sends the
// browser back to redirect with a code and state.
func (o *OAuth) AuthorizeURL(redirect, state string) string {
	q := url.Values{"client_id": {o.clientID}, "redirect_uri": {redirect}, "state": {state}}
	return o.webURL + "/login/oauth/authorize?" + q.Encode()
}

// tokenAnswer is GitHub's answer to a token request: a token, or an error
// code and description (with status 200).
type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// Exchange trades code (from the callback to redirect) for a user access
// token.
func (o *OAuth) Exchange(ctx context.Context, code, redirect string) (string, error) {
	form := url.Values{"client_id": {o.clientID}, "client_secret": {o.clientSecret}, "code": {code}, "redirect_uri": {redirect}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.webURL+"/login/oauth/access_token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("exchange the code: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := o.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("exchange the code: %w", err)
	}
	defer resp.Body.Close()
	var a tokenAnswer
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("exchange the code: GitHub answered %s", resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&a); err != nil {
		return "", fmt.Errorf("exchange the code: %w", err)
	}
	switch {
	case a.Error != "":
		return "", fmt.Errorf("exchange the code: %s: %s", a.Error, a.Description)
	case a.AccessToken == "":
		return "", errors.New("exchange the code: GitHub gave no token")
	}
	return a.AccessToken, nil
}

// Revoke deletes a user access token the App was given, so that it is
// good for nothing after the caller is done with it (GitHub's "Delete an
// app token": Basic authentication by the client ID and secret). The REST
// root is resolved as NewClient resolves it, so a bare GHES host gets its
// /api/v3/.
//
// https://docs.github.com/rest/apps/oauth-applications#delete-an-app-token
func (o *OAuth) Revoke(ctx context.Context, token string) error {
	basic := &github.BasicAuthTransport{Username: o.clientID, Password: o.clientSecret, Transport: o.hc.Transport}
	c, err := NewClient(o.apiURL, &http.Client{Transport: basic, Timeout: o.hc.Timeout})
	if err != nil {
		return fmt.Errorf("revoke the token: %w", err)
	}
	if _, err := c.Authorizations.Revoke(ctx, o.clientID, token); err != nil {
		return fmt.Errorf("revoke the token: %w", err)
	}
	return nil
}
