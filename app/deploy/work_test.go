package deploy

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app/route"
	"github.com/google/go-cmp/cmp"
)

// TestDeployFamily: a deployment_protection_rule.requested payload (as
// GitHub's webhook reference documents it) asks to judge that run's
// deployment; one without a callback naming a run is refused, and other
// actions start nothing.
func TestDeployFamily(t *testing.T) {
	body, err := os.ReadFile("testdata/webhooks/deployment_protection_rule.requested.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []route.Work{JudgeDeploy{Environment: "production", SHA: "7638417db6d59f3c431d3e1f261cc637155684cd", RunID: 1234567890}}
	if diff := cmp.Diff(want, routeOf(t, body)); diff != "" {
		t.Errorf("work (-want +got):\n%s", diff)
	}
	bad := installed(`{"action":"requested","environment":"production","deployment":{"sha":"abc"},"deployment_callback_url":"https://api.github.com/repos/acme/app/deployments"}`)
	if _, _, err := (route.Table{Family()}).Route("deployment_protection_rule", bad, 4242); err == nil {
		t.Error("a callback naming no run was taken")
	}
	other := installed(`{"action":"completed","environment":"production"}`)
	if ws := routeOf(t, other); len(ws) != 0 {
		t.Errorf("action completed: %v", ws)
	}
}

// FuzzCallbackRun: any callback URL a payload carries yields a run ID or
// an error, never a panic, and a run ID only from a path ending in
// /actions/runs/{id}/deployment_protection_rule.
func FuzzCallbackRun(f *testing.F) {
	f.Add("https://api.github.com/repos/acme/app/actions/runs/1234567890/deployment_protection_rule")
	f.Add("https://api.github.com/repos/acme/app/deployments/1")
	f.Add("%zz")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := callbackRun(s)
		if err == nil && !strings.HasSuffix(s, strconv.FormatInt(id, 10)+"/deployment_protection_rule") && !strings.Contains(s, "?") && !strings.Contains(s, "#") && !strings.Contains(s, "%") {
			t.Errorf("callbackRun(%q) = %d without naming it", s, id)
		}
	})
}

// routeOf is what the deployment family makes of a delivery.
func routeOf(t *testing.T, body []byte) []route.Work {
	t.Helper()
	_, ws, err := (route.Table{Family()}).Route("deployment_protection_rule", body, 4242)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// installed gives a bare payload an installation and a repository.
func installed(payload string) []byte {
	return []byte(`{"installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},` + payload[1:])
}
