package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	pboard "github.com/aepgate/aepgate/protocol/board"
	incrementrules "github.com/aepgate/aepgate/protocol/increment"
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
	w := newIncrementWorldWith(t, incrementYAML, "```yaml\nrisk: high\n```\n", nil, fast, "medium", "medium", "low")
	b := &boardWorld{Live: w.Live, gh: w.F.Client(w.Inst.Token())}
	w.certified(t, 0)
	w.certified(t, 1)
	b.waitBoard(t, "stage **building** (high risk)", fmt.Sprintf("story #%d is not done yet", w.stories[2].Number()))
	w.stageIs(t, incrementrules.Building)

	last := w.merge(t, 2)
	w.stories[2].Close("olivia")
	b.waitBoard(t, "stage **integrating** (high risk)", "waiting for a run of ci at "+last[:12])
	w.stageIs(t, incrementrules.Integrating)

	w.readback(t, last)
	accept := fmt.Sprintf("/aep accept %d %s", w.ms.Number(), last)
	b.waitBoard(t, "stage **accepting** (high risk)", "The owner accepts with `"+accept+"`")
	w.stageIs(t, incrementrules.Accepting)

	w.control.Comment("olivia", accept)
	cert, ok := w.complete(t, last)
	if !ok {
		t.Fatalf("the owner's acceptance did not complete the increment: %+v", w.increment(t, last))
	}
	run := w.increment(t, last)
	gr, _, err := b.gh.Checks.GetCheckRun(context.Background(), "acme", "widgets", run.ID)
	if err != nil {
		t.Fatal(err)
	}
	sum := run.ExternalID[len("sha256:"):]
	fetch := pboard.FetchCommand("acme/widgets", w.ms.Number(), last, w.GHApp.Slug)
	b.waitBoard(t, "stage **complete** (high risk)", "Increment certificate [`sha256:"+sum[:12]+"`]("+gr.GetHTMLURL()+")", "`"+fetch+"`")
	got := w.stageIs(t, incrementrules.Complete)
	want := &pboard.IncrementCertificate{SHA256: sum, Integrated: cert.IntegratedSha, URL: gr.GetHTMLURL(), Fetch: fetch}
	if diff := cmp.Diff(want, got.Certificate); diff != "" {
		t.Errorf("the kept board's certificate (-want +got):\n%s", diff)
	}
	w.boardReads(t)
}

// stageIs waits until the kept board shows milestone M1 at stage, judged by
// the App, and returns that increment.
func (w *incrementWorld) stageIs(t *testing.T, stage incrementrules.Stage) pboard.Increment {
	t.Helper()
	var inc pboard.Increment
	appkit.WaitFor(t, 10*time.Second, "the kept board at stage "+string(stage), func() bool {
		kept, ok, err := w.App.Board(context.Background(), "acme/widgets")
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range kept.Increments {
			if ok && i.Number == w.ms.Number() {
				inc = i
			}
		}
		return inc.Stage == stage && inc.Judged
	})
	return inc
}

// boardReads runs one board update and wants one GitHub read (the board
// query) and no write: the stages come from the store.
func (w *incrementWorld) boardReads(t *testing.T) {
	t.Helper()
	w.Quiet(t)
	ctx := context.Background()
	in, err := w.App.GitHub().Installation(w.Inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	login, err := w.App.GitHub().AppLogin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), appkit.Logger(t)); err != nil {
		t.Fatal(err)
	}
	w.F.ResetLog()
	if err := w.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), appkit.Logger(t)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"POST /graphql": 1}, w.F.Stats().ByRoute); diff != "" {
		t.Errorf("API calls of a board update with a complete increment (-want +got):\n%s", diff)
	}
}
