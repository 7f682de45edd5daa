package boardweb

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSessionCookie(t *testing.T) {
	sg := newHMACSigner([]byte("client secret"))
	s := session{Login: "alice", Repos: []string{"acme/docs", "acme/ledger"}, Expires: boardTime.Add(time.Minute).Unix()}
	v, err := encodeSession(sg, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeSession(sg, v, boardTime)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	tests := []struct {
		name  string
		value string
		sg    signer
		now   time.Time
		want  error
	}{
		{"expired", v, sg, boardTime.Add(time.Minute), errExpired},
		{"other key", v, newHMACSigner([]byte("another secret")), boardTime, errForged},
		{"state cookie as session", sealState(sg, "abc", boardTime.Add(time.Hour)), sg, boardTime, errForged},
		{"tampered", tamper(t, v, func(s *session) { s.Login = "root" }), sg, boardTime, errForged},
		{"no dot", "abc", sg, boardTime, errForged},
		{"empty", "", sg, boardTime, errForged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decodeSession(tt.sg, tt.value, tt.now); !errors.Is(err, tt.want) {
				t.Errorf("decodeSession: %v, want %v", err, tt.want)
			}
		})
	}
}

func TestStateCookie(t *testing.T) {
	sg := newHMACSigner([]byte("client secret"))
	v := sealState(sg, "f00d", boardTime.Add(stateTTL))
	if got, err := openState(sg, v, boardTime); err != nil || got != "f00d" {
		t.Errorf("openState = %q, %v", got, err)
	}
	if _, err := openState(sg, v, boardTime.Add(stateTTL)); !errors.Is(err, errExpired) {
		t.Errorf("expired state: %v", err)
	}
	sess, _ := encodeSession(sg, session{Login: "a", Expires: boardTime.Add(time.Hour).Unix()})
	if _, err := openState(sg, sess, boardTime); !errors.Is(err, errForged) {
		t.Errorf("session as state: %v, want errForged", err)
	}
}

// TestSessionTooBig: a person who can read more repositories than one
// cookie holds gets errTooBig, never a cut list.
func TestSessionTooBig(t *testing.T) {
	var repos []string
	for i := range 2000 {
		repos = append(repos, fmt.Sprintf("org-%d/repository-%x", i, i*7919))
	}
	_, err := encodeSession(newHMACSigner([]byte("k")), session{Login: "a", Repos: repos, Expires: 1})
	if !errors.Is(err, errTooBig) {
		t.Errorf("encodeSession(2000 repositories): %v, want errTooBig", err)
	}
}

// FuzzDecodeSession feeds cookie values a browser may send: decoding never
// panics and accepts only what the key sealed.
func FuzzDecodeSession(f *testing.F) {
	sg := newHMACSigner([]byte("k"))
	v, _ := encodeSession(sg, session{Login: "alice", Repos: []string{"a/b"}, Expires: boardTime.Add(time.Hour).Unix()})
	f.Add(v)
	f.Add("")
	f.Add(".")
	f.Add("eJw.AAAA")
	sealed, _ := sg.open(purposeSession, v)
	f.Fuzz(func(t *testing.T, value string) {
		openState(sg, value, boardTime)
		s, err := decodeSession(sg, value, boardTime)
		if err != nil {
			return
		}
		if got, _ := sg.open(purposeSession, value); !bytes.Equal(got, sealed) || s.Login != "alice" {
			t.Errorf("accepted %q, which the key did not seal", value)
		}
	})
}
