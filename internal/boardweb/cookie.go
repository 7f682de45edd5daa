package boardweb

import (
	"bytes"
	"compress/flate"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The cookies' purposes: each value is signed with its purpose, so a
// state cookie can never pass for a session and the other way round.
const (
	purposeSession = "session"
	purposeState   = "state"
)

// maxCookie bounds a cookie's value: browsers keep at least 4096 bytes per
// cookie, name and attributes included (RFC 6265 §6.1).
const maxCookie = 3800

// The ways a cookie is refused.
var (
	// errTooBig refuses a session that would not fit in one cookie.
	errTooBig = errors.New("the session does not fit in a cookie")
	// errForged is a cookie not signed with the key for its purpose, or
	// malformed.
	errForged = errors.New("the cookie is not one this server signed")
	// errExpired is a genuine cookie past its expiry.
	errExpired = errors.New("the cookie has expired")
)

// signer seals a payload for one purpose and opens it again; open refuses a
// value that was not sealed with the key for that purpose.
type signer interface {
	seal(purpose string, payload []byte) string
	open(purpose, value string) ([]byte, bool)
}

// hmacSigner signs with HMAC-SHA256 over purpose and payload:
// base64url(payload) "." base64url(mac).
type hmacSigner struct{ key []byte }

// newHMACSigner derives the cookie key from secret (the App's client
// secret), so every replica that shares the secret accepts the others'
// cookies.
func newHMACSigner(secret []byte) hmacSigner {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("aepgate board cookies v1"))
	return hmacSigner{key: m.Sum(nil)}
}

func (s hmacSigner) mac(purpose string, payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)
}

func (s hmacSigner) seal(purpose string, payload []byte) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(purpose, payload))
}

func (s hmacSigner) open(purpose, value string) ([]byte, bool) {
	payload, mac, ok := splitCookie(value)
	if !ok || !hmac.Equal(mac, s.mac(purpose, payload)) {
		return nil, false
	}
	return payload, true
}

// splitCookie decodes the two halves of a sealed value.
func splitCookie(value string) (payload, mac []byte, ok bool) {
	p, m, found := strings.Cut(value, ".")
	if !found || len(value) > maxCookie {
		return nil, nil, false
	}
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(m)
	return payload, mac, err1 == nil && err2 == nil
}

// session is what the session cookie holds: who signed in, the
// repositories the page may show them, and when that list stops being
// trusted.
type session struct {
	Login   string   `json:"l"`
	Repos   []string `json:"r"`
	Expires int64    `json:"e"` // Unix seconds
}

// encodeSession compresses and seals s; a session too big for one cookie is
// errTooBig.
func encodeSession(sg signer, s session) (string, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("encode session: %w", err)
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(raw)
	w.Close()
	v := sg.seal(purposeSession, buf.Bytes())
	if len(v) > maxCookie {
		return "", errTooBig
	}
	return v, nil
}

// decodeSession opens a session cookie's value: errForged when sg did not
// sign it or it is malformed, errExpired when it is past its expiry at now.
func decodeSession(sg signer, value string, now time.Time) (session, error) {
	packed, ok := sg.open(purposeSession, value)
	if !ok {
		return session{}, errForged
	}
	raw, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(packed)), 1<<20))
	if err != nil {
		return session{}, errForged
	}
	var s session
	if err := json.Unmarshal(raw, &s); err != nil || s.Login == "" {
		return session{}, errForged
	}
	if now.Unix() >= s.Expires {
		return session{}, errExpired
	}
	return s, nil
}

// sealState seals the OAuth state for the state cookie, valid until exp.
func sealState(sg signer, state string, exp time.Time) string {
	return sg.seal(purposeState, []byte(state+"|"+strconv.FormatInt(exp.Unix(), 10)))
}

// openState returns the state a state cookie holds, if sg signed it and it
// has not expired at now.
func openState(sg signer, value string, now time.Time) (string, error) {
	raw, ok := sg.open(purposeState, value)
	if !ok {
		return "", errForged
	}
	state, exp, found := strings.Cut(string(raw), "|")
	e, err := strconv.ParseInt(exp, 10, 64)
	switch {
	case !found || err != nil || state == "":
		return "", errForged
	case now.Unix() >= e:
		return "", errExpired
	}
	return state, nil
}
