package ghfake

import "net/http"

// revokeToken serves DELETE /applications/{client_id}/token: with Basic
// authentication by the App's client ID and secret, it revokes one user
// access token the App issued (GitHub: "Delete an app token"). 204 when
// revoked; 401 for wrong credentials; 404 for a token the App did not
// issue or that is already gone; 422 without a token.
//
// https://docs.github.com/rest/apps/oauth-applications#delete-an-app-token
func revokeToken(c *call) (int, any) {
	id, secret, ok := c.r.BasicAuth()
	a := c.f.appByClientID(c.r.PathValue("client_id"))
	if !ok || a == nil || id != a.ClientID || !c.f.clientSecretOK(a, secret) {
		return apiError(http.StatusUnauthorized, "Requires authentication")
	}
	var body struct {
		AccessToken string `json:"access_token"`
	}
	if err := c.decode(&body); err != nil {
		return badJSON(err)
	}
	if body.AccessToken == "" {
		return apiError(http.StatusUnprocessableEntity, "access_token is required")
	}
	t := c.f.tokens[body.AccessToken]
	if t == nil || t.kind != userToken || t.app != a {
		return apiError(http.StatusNotFound, "Not Found")
	}
	delete(c.f.tokens, body.AccessToken)
	return http.StatusNoContent, nil
}
