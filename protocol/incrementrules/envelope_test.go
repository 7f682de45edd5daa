package incrementrules

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestCertificateNamesStoryEnvelopes: a story whose merge commit has a
// signed envelope (Facts.Envelopes) is drawn with its envelopeSha256;
// one without is drawn without; a malformed or orphan envelopeSha256 is
// refused by Validate.
func TestCertificateNamesStoryEnvelopes(t *testing.T) {
	f := with(complete(), func(f *Facts) { f.Envelopes = map[string]string{sha("2"): cert("e")} })
	v := Decide(f)
	c, rs := Validate(v.Certificate)
	if len(rs) > 0 {
		t.Fatalf("Validate: %v", rs)
	}
	got := map[int]string{}
	for _, s := range c.Stories {
		got[s.Unit] = s.EnvelopeSha256
	}
	if diff := cmp.Diff(map[int]string{1: "", 2: cert("e"), 3: ""}, got); diff != "" {
		t.Errorf("envelopeSha256 by unit (-want +got):\n%s", diff)
	}
	raw := string(v.Certificate)
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"drawn", raw, nil},
		{"short envelope digest", strings.Replace(raw, `"envelopeSha256":"`+cert("e")+`"`, `"envelopeSha256":"`+cert("e")[:10]+`"`, 1), []string{"increment-story-envelope"}},
		{"an envelope without a certificate", strings.Replace(raw, `"certificateSha256":"`+cert("c")+`","envelopeSha256"`, `"envelopeSha256"`, 1), []string{"increment-story-envelope", "increment-story-uncertified"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rs := Validate([]byte(tt.raw))
			if diff := cmp.Diff(tt.want, refusal.Tokens(rs), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Validate tokens (-want +got):\n%s", diff)
			}
		})
	}
}
