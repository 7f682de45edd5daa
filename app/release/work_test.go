package release

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/google/go-cmp/cmp"
)

func TestParseReleaseDeliveries(t *testing.T) {
	tests := []struct {
		action string
		want   []route.Work
	}{
		{"published", []route.Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"released", []route.Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"prereleased", []route.Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"edited", []route.Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"unpublished", []route.Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"deleted", []route.Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"created", nil}, // a draft has no tag yet; publishing sends published
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			body := fmt.Sprintf(`{"action":%q,"release":{"tag_name":"v2.0.0"},"installation":{"id":9},"repository":{"name":"r","owner":{"login":"o"}}}`, tt.action)
			if diff := cmp.Diff(tt.want, routeOf(t, []byte(body))); diff != "" {
				t.Errorf("work (-want +got):\n%s", diff)
			}
		})
	}
	for _, w := range fixtures.Webhooks(t) {
		if _, ws, err := (route.Table{Family()}).Route(w.Event, w.Body, 4242); w.Event == "release" && toInstallation(t, w) && err == nil &&
			(len(ws) == 1) != slices.Contains(Actions, w.Action) {
			t.Errorf("%s: work %v", w.Name, ws)
		}
	}
}

// routeOf is what the release family makes of a release delivery.
func routeOf(t *testing.T, body []byte) []route.Work {
	t.Helper()
	_, ws, err := (route.Table{Family()}).Route("release", body, 4242)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// toInstallation reports whether w was delivered to an App installation
// (the npm fixtures also hold older recordings made without one).
func toInstallation(t *testing.T, w fixtures.Webhook) bool {
	var p struct {
		Installation json.RawMessage `json:"installation"`
	}
	if err := json.Unmarshal(w.Body, &p); err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	return p.Installation != nil
}
