package webhook

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// eventName also bounds a logged payload action.
var (
	eventName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9_]{1,64}$`) })
	deliveryID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`) })
)

// verified checks sig with Options.Verify, else verify.
func (h *Handler) verified(sig string, macs [][]byte) bool {
	if h.opts.Verify != nil {
		return h.opts.Verify(sig, macs)
	}
	return verify(sig, macs)
}

// verify checks sig ("sha256=<hex>") against the body's HMAC under each
// secret in constant time.
func verify(sig string, macs [][]byte) bool {
	hexSig, ok := strings.CutPrefix(sig, "sha256=")
	if !ok {
		return false
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	valid := false
	for _, m := range macs {
		// Every secret is tried, so timing does not say which matched.
		if hmac.Equal(got, m) {
			valid = true
		}
	}
	return valid
}

// delivery checks a verified request's headers and body and returns the
// delivery, with the payload its job keeps when its event starts work, and
// the payload's "action" ("" when it has none).
func (h *Handler) delivery(hd http.Header, body *spooled) (Delivery, string, *refusal) {
	d, ref := checkHeaders(hd)
	if ref != nil {
		return d, "", ref
	}
	if limit := cmp.Or(h.opts.MaxDepth, MaxDepth); body.shape.maxDepth > limit {
		return d, "", &refusal{http.StatusBadRequest, "too_deep", fmt.Sprintf("JSON nested deeper than %d levels", limit)}
	}
	raw, err := body.bytes()
	if err != nil {
		h.log.Error("webhook body not read back", "delivery", d.DeliveryID, "err", err)
		return d, "", &refSpool
	}
	action, ok := payloadAction(raw)
	if !ok {
		return d, "", malformed("body is not a JSON object")
	}
	if h.handled(d.Event) {
		if ref := h.eventFits(d.Event, body.shape.keys); ref != nil {
			return d, "", ref
		}
		if d.Payload, err = h.store(d.Event, raw); err != nil {
			return d, "", malformed("body's fields do not have the types of a GitHub " + d.Event + " payload")
		}
	}
	return d, action, nil
}

func malformed(msg string) *refusal { return &refusal{http.StatusBadRequest, "malformed", msg} }

// eventFits refuses a body of an event that starts work when it does not
// have the shape of that event's payload (Options.EventFits, else
// eventShapes): a signed body of one event sent as another is not judged
// as that one.
func (h *Handler) eventFits(event string, keys []string) *refusal {
	if h.opts.EventFits != nil {
		if h.opts.EventFits(event, keys) {
			return nil
		}
		return &refusal{http.StatusBadRequest, "wrong_event", "body does not have the shape of a " + event + " payload"}
	}
	ok, missing, foreign := fits(eventShapes, event, keys)
	switch {
	case ok:
		return nil
	case missing != "":
		return &refusal{http.StatusBadRequest, "wrong_event", fmt.Sprintf("a %s payload has a top-level %q; this body has none", event, missing)}
	}
	return &refusal{http.StatusBadRequest, "wrong_event", fmt.Sprintf("a %s payload never has a top-level %q; this body belongs to another event", event, foreign)}
}

// checkHeaders checks a verified request's event and delivery ID headers.
func checkHeaders(hd http.Header) (Delivery, *refusal) {
	d := Delivery{DeliveryID: hd.Get("X-GitHub-Delivery"), Event: hd.Get("X-GitHub-Event")}
	if !eventName().MatchString(d.Event) {
		return d, malformed("missing or invalid X-GitHub-Event")
	}
	if !deliveryID().MatchString(d.DeliveryID) {
		return d, malformed("missing or invalid X-GitHub-Delivery")
	}
	return d, nil
}

// payloadAction returns the top-level "action" of a JSON object body: ""
// when it has none, or when it is not a string of up to 64 lowercase
// letters, digits and underscores (GitHub's actions all are), so a log line
// never carries more. ok is false when body is not a JSON object, however
// much whitespace leads it. The whole body is validated; only that field
// is decoded.
func payloadAction(b []byte) (action string, ok bool) {
	var p struct {
		Action json.RawMessage `json:"action"`
	}
	if !bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{")) || json.Unmarshal(b, &p) != nil {
		return "", false
	}
	if json.Unmarshal(p.Action, &action) != nil || !eventName().MatchString(action) {
		return "", true
	}
	return action, true
}
