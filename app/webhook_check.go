package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
)

// eventName also bounds a logged payload action.
var (
	eventName  = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	deliveryID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
)

// verified checks sig with edge.verify, else h.verify.
func (h *webhookHandler) verified(sig string, body []byte) bool {
	if h.edge.verify != nil {
		return h.edge.verify(sig, body)
	}
	return h.verify(sig, body)
}

// verify checks sig ("sha256=<hex>") against each secret in constant time.
func (h *webhookHandler) verify(sig string, body []byte) bool {
	hexSig, ok := strings.CutPrefix(sig, "sha256=")
	if !ok {
		return false
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	valid := false
	for _, s := range h.secrets {
		m := hmac.New(sha256.New, s)
		m.Write(body)
		// Every secret is tried, so timing does not say which matched.
		if hmac.Equal(got, m.Sum(nil)) {
			valid = true
		}
	}
	return valid
}

// checkHeaders checks a verified request's headers and body and returns
// the delivery and the payload's "action" ("" when it has none).
func checkHeaders(hd http.Header, body []byte) (deliveryArgs, string, *refusal) {
	d := deliveryArgs{DeliveryID: hd.Get("X-GitHub-Delivery"), Event: hd.Get("X-GitHub-Event"), Payload: body}
	malformed := func(msg string) *refusal { return &refusal{http.StatusBadRequest, "malformed", msg} }
	if !eventName.MatchString(d.Event) {
		return d, "", malformed("missing or invalid X-GitHub-Event")
	}
	if !deliveryID.MatchString(d.DeliveryID) {
		return d, "", malformed("missing or invalid X-GitHub-Delivery")
	}
	action, ok := payloadAction(body)
	if !ok {
		return d, "", malformed("body is not a JSON object")
	}
	return d, action, nil
}

// payloadAction returns the top-level "action" of a JSON object body: ""
// when it has none, or when it is not a string of up to 64 lowercase
// letters, digits and underscores (GitHub's actions all are), so a log line
// never carries more. ok is false when body is not a JSON object. The whole
// body is validated; only that field is decoded.
func payloadAction(b []byte) (action string, ok bool) {
	s := strings.TrimLeft(string(b[:min(len(b), 64)]), " \t\r\n")
	var p struct {
		Action json.RawMessage `json:"action"`
	}
	if !strings.HasPrefix(s, "{") || json.Unmarshal(b, &p) != nil {
		return "", false
	}
	if json.Unmarshal(p.Action, &action) != nil || !eventName.MatchString(action) {
		return "", true
	}
	return action, true
}
