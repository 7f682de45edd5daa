package lint

import "testing"

func TestStatesNegativeControl(t *testing.T) {
	tests := []struct {
		name string
		body string
		want bool
	}{
		// Genuine controls in free wording (cases mirrored from aepkit's lint tests).
		{"remove observe restore", "**Negative control:** a negative control — remove the check, observe it fail, restore, observe it pass.", true},
		{"short real control", "**Negative control:** revert the guard and watch test_auth fail.", true},
		{"expired token 401", "**Negative control:** send an expired token to /v1/ledger and get a 401 back.", true},
		{"comment out limiter", "**Negative control:** comment out the rate limiter in api.go; the load test errors out.", true},
		{"set retries raises", "**Negative control:** set MAX_RETRIES to 0 and the client raises TimeoutError.", true},
		{"control on next line", "**Negative control:**\nDelete the uniqueness index; the duplicate insert test fails with exit 1.", true},
		{"bullet under label", "**Negative control:**\n- drop the signature check; the forged webhook is rejected no longer and test_forged fails.", true},
		{"odd casing", "**NeGaTiVe CoNTROL:** Remove the guard and watch the test FAIL.", true},
		{"plural real", "**Negative controls:** remove the lock and the race test fails.", true},
		{"unicode spaces", "**Negative\u00a0control:** remove\u2003the guard and watch the test fail.", true},
		{"exit code", "**Negative control:** break the parser; `go test` exits 1.", true},

		{"break signature check", "**Negative control:** break the signature check by returning true early; TestWebhookSignature fails with \"expected 401, got 200\".", true},
		{"swap comparator", "**Negative control:** temporarily swap the comparator for `==`; the fuzz test finds a mismatch and exits 1.", true},
		{"reverted migration", "**Negative control:** with the migration reverted, `make check` errors out on the absent column.", true},
		{"mutate checksum", "**Negative control:** mutate the fixture's checksum; the loader rejects it with ErrChecksum.", true},
		{"stub clock", "**Negative control:** stub the clock to return 1970; token validation throws ExpiredError.", true},

		// Missing or hollow controls.
		{"not applicable", "**Negative control:** not applicable for a docs change.", false},
		{"suite covers it", "**Negative control:** the existing suite covers it.", false},
		{"belief", "**Negative control:** I believe removing the guard would make the test fail.", false},
		{"trust me", "**Negative control:** trust me, it fails without the fix.", false},
		{"green before and after", "**Negative control:** tests were green before and after the change.", false},
		{"removed but passed", "**Negative control:** removed the guard and ran the test; it passed.", false},
		{"only suite passing", "**Proven by:** the suite passing.", false},
		{"no mention at all", "**Proven by:** run the tests and see them fail when broken.", false},
		{"empty label", "**Negative control:**\n\n**Report:** `P0-G1`", false},
		{"dash label", "**Negative control:** —", false},
		{"placeholder label", "**Negative control:** <what you break and what fails>", false},
		{"to be written", "**Negative control:** to be written", false},
		{"N.A.", "**Negative control:** N.A.", false},
		{"N. A.", "**Negative control:** N. A. for this gate", false},
		{"ellipsis", "**Negative control:** ...", false},

		// Negations and deferrals (cases mirrored from aepkit's lint tests).
		{"n/a", "Negative control: n/a", false},
		{"no control needed", "No negative control needed.", false},
		{"dash none", "negative control - none", false},
		{"TBD", "**Negative control:** TBD", false},
		{"skipped for now", "**Negative control:** skipped for now", false},
		{"TODO", "**Negative control:** TODO: remove the guard and watch it fail", false},
		{"step was not done", "The negative control step was not done.", false},
		{"is pending", "The negative control is pending review.", false},
		{"bold n/a", "**Negative control:** n/a", false},
		{"bold colon outside", "**Negative control**: none", false},
		{"bulleted TBD", "**Negative control:**\n- TBD", false},
		{"underscore pending", "__Negative control:__ — pending", false},
		{"plural none", "**Negative controls:** none", false},
		{"plural n/a", "**Negative controls:** n/a", false},
		{"plural TBD", "**Negative controls:** TBD", false},
		{"will add later", "**Negative control:** will add later, remove the guard and it fails", false},
		{"TBA", "**Negative control:** TBA — remove the guard and it fails", false},
		{"see above", "**Negative control:** see above; removing the guard makes it fail", false},
		{"will be added in P1", "**Negative control:** will be added in P1 by removing the guard so it fails", false},
		{"once harness lands", "**Negative control:** remove the guard once the harness lands and it fails", false},
		{"TBC", "**Negative control:** TBC: remove the guard, test fails", false},
		{"to follow", "**Negative control:** to follow in the next sprint: remove guard, test fails", false},
		{"coming soon", "**Negative control:** coming soon — remove guard, test fails", false},
		{"planned", "**Negative control:** planned for the next release: remove guard, test fails", false},

		// Refusals and waivers (cases mirrored from aepkit's lint tests).
		{"docs only", "**Negative control:** No control; docs only.", false},
		{"deliberately omitted", "**Negative control:** deliberately omitted for this gate, removing it would fail", false},
		{"could not break", "**Negative control:** could not break it in a way that fails, nothing to show", false},
		{"not worth doing", "**Negative control:** not worth doing; removing the guard just fails", false},
		{"does not apply", "**Negative control:** Does not apply here, removing the guard fails anyway", false},
		{"unable to break", "**Negative control:** Unable to break the check so that the test fails.", false},
		{"not relevant", "**Negative control:** Not relevant: removing the guard makes the test fail", false},
		{"do not have one yet", "**Negative control:** we do not have one yet; remove guard and it fails", false},
		{"waived", "**Negative control:** Waived by the tech lead; remove guard, it fails", false},
		{"out of scope", "**Negative control:** Out of scope; remove the guard and it fails", false},
		{"nothing fails", "**Negative control:** Remove the guard; nothing fails.", false},
		{"hypothetical", "**Negative control:** if we removed the guard the test would fail", false},
		{"negated action", "**Negative control:** we did not remove the guard, but the test fails otherwise", false},
		{"negated failure", "**Negative control:** remove the guard and the test does not fail", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StatesNegativeControl(tt.body); got != tt.want {
				t.Errorf("StatesNegativeControl(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestVetoNegativeControl removes the veto and shows excuses that carry a
// control-like sentence then pass: the veto is the protection.
func TestVetoNegativeControl(t *testing.T) {
	excuses := []string{
		"**Negative control:** n/a — remove the guard and watch the test fail.\n\n**Negative control:** remove the guard and watch the test fail.",
		"No negative control was run. Negative control: remove the guard and the test fails.",
	}
	for _, body := range excuses {
		if StatesNegativeControl(body) {
			t.Fatalf("with the veto, %q was accepted", body)
		}
		if !statesControl(body, false) {
			t.Errorf("without the veto, %q is still rejected; the test does not exercise the veto", body)
		}
	}
}
