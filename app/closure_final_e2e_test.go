package app_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/protocol/closure"
)

// certify keeps, as the App does when it writes a certificate, a merged
// and certified attempt of w's dependency #api.
func (w *closureWorld) certify(t *testing.T) {
	t.Helper()
	at, err := json.Marshal(closure.Attempt{PR: 90, MergeSHA: strings.Repeat("b", 40), CertificateSHA256: strings.Repeat("c", 64), MergePassed: true, ReadbackPassed: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.App.Store().SaveUnitEvidence(t.Context(), "acme/widgets", w.api.Number(), 90, at, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// boardSays reports whether a board fact of the repository holds text.
func (w *closureWorld) boardSays(t *testing.T, text string) bool {
	t.Helper()
	facts, err := w.App.Store().BoardFacts(t.Context(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range facts {
		if strings.Contains(string(f), text) {
			return true
		}
	}
	return false
}

const ownerFinalConfig = closureConfig + "closure:\n  final: owner\n"

// TestClosureFinalOwner: craft-rules §6.1 under closure.final: owner. The
// dependency #api is certified; carl (a coordinator) closes it: it waits
// in needs-review, the dependent stays blocked saying so, the App posts no
// closed-without-evidence comment, and the owner's board lists it. The
// owner's `/aep close` (or her own closure) makes it done and releases the
// dependent. The negative control removes the owner-final rule and sees
// carl's closure of the certified unit counted (today's closure.final:
// certified).
func TestClosureFinalOwner(t *testing.T) {
	t.Run("owner's /aep close", func(t *testing.T) {
		w := newClosureWorld(t, ownerFinalConfig, nil)
		w.certify(t)
		w.api.Close("carl")
		w.waitUnit(t, "failure", "needs-review: waiting for the owner's closure (closed by carl; closure.final: owner)")
		w.Quiet(t)
		if n := closureComments(w.api); n != 0 {
			t.Errorf("%d closed-without-evidence comments on a needs-review unit, want 0", n)
		}
		if !w.boardSays(t, "waiting for the owner's closure") {
			t.Errorf("the owner's board does not list the needs-review unit")
		}
		w.api.Comment("carl", "/aep close certified, done")
		w.Quiet(t)
		w.waitUnit(t, "failure", "needs-review")
		w.api.Comment("olivia", "/aep close reviewed the certified API")
		w.waitUnit(t, "success", "")
	})
	t.Run("owner's own closure", func(t *testing.T) {
		w := newClosureWorld(t, ownerFinalConfig, nil)
		w.certify(t)
		w.api.Close("carl")
		w.waitUnit(t, "failure", "needs-review")
		w.api.Reopen("olivia")
		w.waitUnit(t, "failure", "is still open")
		w.api.Close("olivia")
		w.waitUnit(t, "success", "")
	})
	t.Run("closure.final: certified counts the coordinator's closure", func(t *testing.T) {
		w := newClosureWorld(t, closureConfig, nil)
		w.certify(t)
		w.api.Close("carl")
		w.waitUnit(t, "success", "")
	})
	t.Run("negative control: owner-final removed", func(t *testing.T) {
		r := closure.DefaultRules()
		r.OwnerFinal = false
		w := newClosureWorld(t, ownerFinalConfig, &r)
		w.certify(t)
		w.api.Close("carl")
		w.waitUnit(t, "success", "")
	})
}
