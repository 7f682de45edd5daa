package gh

import (
	"errors"
	"net"
	"net/url"

	"github.com/google/go-github/v62/github"
)

// Unreachable reports whether err is GitHub or the network not answering
// (a dial, DNS, TLS or timeout error, or a 5xx from GitHub) rather than
// GitHub answering no (a 4xx).
func Unreachable(err error) bool {
	var ge *github.ErrorResponse
	var ue *url.Error
	var ne net.Error
	switch {
	case err == nil:
		return false
	case errors.As(err, &ge):
		return ge.Response != nil && ge.Response.StatusCode >= 500
	case errors.As(err, &ue), errors.As(err, &ne):
		return true
	}
	return false
}
