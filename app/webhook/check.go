package webhook

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
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
// the body's envelope. The body is decoded once (decodeOnce): that pass
// checks its nesting, yields its top-level keys for the shape check and
// keeps the fields of the Envelope and of its event's views; the views
// are then decoded from what was kept, to check its fields' types.
func (h *Handler) delivery(hd http.Header, body *spooled) (Delivery, Envelope, *refusal) {
	d, ref := checkHeaders(hd)
	if ref != nil {
		return d, Envelope{}, ref
	}
	d.BodySHA256 = body.sum
	raw, err := body.bytes()
	if err != nil {
		h.log.Error("webhook body not read back", "delivery", d.DeliveryID, "err", err)
		return d, Envelope{}, &refSpool
	}
	var views []any
	if h.events.handled(d.Event) {
		views = h.events.views(d.Event)
	}
	limit := cmp.Or(h.opts.MaxDepth, MaxDepth)
	kept, keys, err := decodeOnce(raw, h.readsFor(d.Event, views), limit)
	switch {
	case errors.Is(err, errTooDeep):
		return d, Envelope{}, &refusal{http.StatusBadRequest, "too_deep", fmt.Sprintf("JSON nested deeper than %d levels", limit)}
	case err != nil:
		return d, Envelope{}, malformed("body is not a JSON object")
	}
	env := readEnvelope(kept)
	if views == nil {
		return d, env, nil
	}
	if ref := h.eventFits(d.Event, keys); ref != nil {
		return d, env, ref
	}
	for _, v := range views {
		if json.Unmarshal(kept, v) != nil {
			return d, env, malformed("body's fields do not have the types of a GitHub " + d.Event + " payload")
		}
	}
	d.Payload = kept
	return d, env, nil
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
