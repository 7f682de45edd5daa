package queue

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// TestMain prints one line when tests skipped for want of PostgreSQL, so that
// go test shows it without -v (internal/testkit/skipline).
func TestMain(m *testing.M) { skipline.Main(m) }
