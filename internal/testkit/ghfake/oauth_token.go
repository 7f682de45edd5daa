package ghfake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// exchangeCode serves POST /login/oauth/access_token: the client ID and
// secret must be an App's, the code one that App's authorize page gave and
// not yet used or expired, and redirect_uri (when sent) the one the code
// was issued for. Like GitHub it answers 200 with an "error" field when
// refusing, as JSON when asked (Accept: application/json) and form-encoded
// otherwise.
//
// https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-user-access-token-for-a-github-app
func exchangeCode(c *call) (int, any) {
	if err := c.r.ParseForm(); err != nil {
		return badJSON(err)
	}
	form := c.r.Form
	if strings.HasPrefix(c.r.Header.Get("Content-Type"), "application/json") {
		var body map[string]string
		if err := c.decode(&body); err != nil {
			return badJSON(err)
		}
		for k, v := range body {
			form.Set(k, v)
		}
	}
	answer := c.f.redeem(form)
	if strings.Contains(c.r.Header.Get("Accept"), "application/json") {
		return http.StatusOK, answer
	}
	vals := url.Values{}
	for k, v := range answer {
		vals.Set(k, toString(v))
	}
	c.w.Header().Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write([]byte(vals.Encode()))
	return 0, nil
}

// redeem checks a token request and returns GitHub's answer; callers hold
// mu.
func (f *Fake) redeem(form url.Values) obj {
	a := f.appByClientID(form.Get("client_id"))
	if !f.clientSecretOK(a, form.Get("client_secret")) {
		return oauthError("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.")
	}
	code := f.oauth.codes[form.Get("code")]
	if code == nil || code.app != a || !f.clock().Before(code.expires) {
		return oauthError("bad_verification_code", "The code passed is incorrect or expired.")
	}
	if r := form.Get("redirect_uri"); r != "" && r != code.redirect {
		return oauthError("redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.")
	}
	delete(f.oauth.codes, form.Get("code"))
	t := &token{value: randomToken("ghu_"), kind: userToken, app: a, user: code.user, expires: f.clock().Add(userTokenLife)}
	f.tokens[t.value] = t
	return obj{
		"access_token": t.value, "token_type": "bearer", "scope": "",
		"expires_in": int(userTokenLife.Seconds()), "refresh_token": randomToken("ghr_"),
		"refresh_token_expires_in": 15897600,
	}
}

func oauthError(code, msg string) obj {
	return obj{
		"error": code, "error_description": msg,
		"error_uri": "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors",
	}
}

// toString spells a JSON value as it appears in a form-encoded answer.
func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
