package closure_test

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

const ownerFinalConfig = appkit.ClosureConfig + "closure:\n  final: owner\n"

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
		w.Certify(t)
		w.API.Close("carl")
		w.WaitUnit(t, "failure", "needs-review: waiting for the owner's closure (closed by carl; closure.final: owner)")
		w.Quiet(t)
		if n := appkit.ClosureComments(w.API); n != 0 {
			t.Errorf("%d closed-without-evidence comments on a needs-review unit, want 0", n)
		}
		if !w.BoardSays(t, "waiting for the owner's closure") {
			t.Errorf("the owner's board does not list the needs-review unit")
		}
		w.API.Comment("carl", "/aep close certified, done")
		w.Quiet(t)
		w.WaitUnit(t, "failure", "needs-review")
		w.API.Comment("olivia", "/aep close reviewed the certified API")
		w.WaitUnit(t, "success", "")
	})
	t.Run("owner's own closure", func(t *testing.T) {
		w := newClosureWorld(t, ownerFinalConfig, nil)
		w.Certify(t)
		w.API.Close("carl")
		w.WaitUnit(t, "failure", "needs-review")
		w.API.Reopen("olivia")
		w.WaitUnit(t, "failure", "is still open")
		w.API.Close("olivia")
		w.WaitUnit(t, "success", "")
	})
	t.Run("closure.final: certified counts the coordinator's closure", func(t *testing.T) {
		w := newClosureWorld(t, appkit.ClosureConfig, nil)
		w.Certify(t)
		w.API.Close("carl")
		w.WaitUnit(t, "success", "")
	})
	t.Run("negative control: owner-final removed", func(t *testing.T) {
		r := closurerules.DefaultRules()
		r.OwnerFinal = false
		w := newClosureWorld(t, ownerFinalConfig, &r)
		w.Certify(t)
		w.API.Close("carl")
		w.WaitUnit(t, "success", "")
	})
}
