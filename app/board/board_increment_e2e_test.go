package board_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// TestBoardFollowsIncrementStages walks a high-risk increment of three
// stories through its stages on the fake, and the board issue and the kept
// board follow each: building while story 3 is open; integrating once the
// owner closed it, before ci ran at its merge (the integrated candidate);
// accepting once ci ran there, naming the owner's exact command; complete
// after the owner's /aep accept, linking the aepgate/increment run (its
// html_url as GitHub answers it) with the certificate's SHA-256 and the
// fetch command. A board update then still costs one GitHub read.
func TestBoardFollowsIncrementStages(t *testing.T) {
	fast := func(o *app.Options) { o.BoardDelay = 100 * time.Millisecond }
	w := appkit.NewIncrementWorldWith(t, appkit.IncrementYAML, "```yaml\nrisk: high\n```\n", nil, fast, "medium", "medium", "low")
	b := &appkit.BoardWorld{Live: w.Live, GH: w.F.Client(w.Inst.Token())}
	w.Certified(t, 0)
	w.Certified(t, 1)
	b.WaitBoard(t, "stage **building** (high risk)", fmt.Sprintf("story #%d is not done yet", w.Stories[2].Number()))
	w.StageIs(t, incrementrules.Building)

	last := w.Merge(t, 2)
	w.Stories[2].Close("olivia")
	b.WaitBoard(t, "stage **integrating** (high risk)", "waiting for a run of ci at "+last[:12])
	w.StageIs(t, incrementrules.Integrating)

	w.Readback(t, last)
	accept := fmt.Sprintf("/aep accept %d %s", w.MS.Number(), last)
	b.WaitBoard(t, "stage **accepting** (high risk)", "The owner accepts with `"+accept+"`")
	w.StageIs(t, incrementrules.Accepting)

	w.Control.Comment("olivia", accept)
	cert, ok := w.Complete(t, last)
	if !ok {
		t.Fatalf("the owner's acceptance did not complete the increment: %+v", w.Increment(t, last))
	}
	run := w.Increment(t, last)
	gr, _, err := b.GH.Checks.GetCheckRun(context.Background(), "acme", "widgets", run.ID)
	if err != nil {
		t.Fatal(err)
	}
	sum := run.ExternalID[len("sha256:"):]
	fetch := boardview.FetchCommand("acme/widgets", w.MS.Number(), last, w.GHApp.Slug)
	b.WaitBoard(t, "stage **complete** (high risk)", "Increment certificate [`sha256:"+sum[:12]+"`]("+gr.GetHTMLURL()+")", "`"+fetch+"`")
	got := w.StageIs(t, incrementrules.Complete)
	want := &boardview.IncrementCertificate{SHA256: sum, Integrated: cert.IntegratedSha, URL: gr.GetHTMLURL(), Fetch: fetch}
	if diff := cmp.Diff(want, got.Certificate); diff != "" {
		t.Errorf("the kept board's certificate (-want +got):\n%s", diff)
	}
	w.BoardReads(t)
}
