package skipline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSummaryCountsSkipsPerNeed(t *testing.T) {
	pg := Need{What: "PostgreSQL", Install: "sudo apt-get install postgresql"}
	chromium := Need{What: "Chromium", Install: "sudo apt-get install chromium"}
	for _, n := range []Need{pg, pg, chromium} {
		t.Run(n.What, func(t *testing.T) { Skip(t, n, n.What+" not installed") })
	}
	want := []string{
		"./x: 1 test skipped: Chromium not installed; run them with: sudo apt-get install chromium && go test ./x",
		"./x: 2 tests skipped: PostgreSQL not installed; run them with: sudo apt-get install postgresql && go test ./x",
	}
	if diff := cmp.Diff(want, Summary("./x")); diff != "" {
		t.Errorf("Summary (-want +got):\n%s", diff)
	}
}

func TestPackageDirIsRelativeToTheModule(t *testing.T) {
	if got, want := packageDir(), "./internal/testkit/skipline"; got != want {
		t.Errorf("packageDir = %q, want %q", got, want)
	}
}
