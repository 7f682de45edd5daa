package gate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExportedEnums(t *testing.T) {
	if got, want := Scopes(), []string{"close", "credential", "deploy", "implement", "irreversible", "merge", "project", "spawn", "spend", "work-unit"}; !cmp.Equal(got, want) {
		t.Errorf("Scopes() diff (-want +got):\n%s", cmp.Diff(want, got))
	}
	tests := []struct {
		name      string
		got, want bool
	}{
		{"category listed", IsOwnerOnlyCategory("explicit-hold"), true},
		{"category unknown", IsOwnerOnlyCategory("whatever"), false},
		{"scope merge", IsScope(ScopeMerge), true},
		{"scope unknown", IsScope("release"), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if tok, _ := EffectProblem("local-repair"); tok != "not-an-external-effect" {
		t.Errorf("EffectProblem(local-repair) token = %q", tok)
	}
	if tok, msg := EffectProblem("deploy"); tok != "" || msg != "" {
		t.Errorf("EffectProblem(deploy) = %q, %q; want none", tok, msg)
	}
	if len(OwnerOnlyCategories()) != 8 || len(ExternalEffects()) != 9 {
		t.Errorf("categories %d, effects %d; want 8, 9", len(OwnerOnlyCategories()), len(ExternalEffects()))
	}
}
