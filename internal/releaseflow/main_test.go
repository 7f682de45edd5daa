package releaseflow

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// TestMain prints one line for the tests that skipped for want of a tool
// (openssl), with the command that installs it.
func TestMain(m *testing.M) { skipline.Main(m) }
