package refusal

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestString(t *testing.T) {
	r := Refusal{Token: "missing:mergeSha", Expected: "a 40-hex SHA", Seen: "nothing"}
	if got, want := r.String(), "missing:mergeSha: expected a 40-hex SHA, saw nothing"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestTokens(t *testing.T) {
	rs := []Refusal{{Token: "b"}, {Token: "a"}, {Token: "b", Seen: "again"}, {Token: "c"}}
	if diff := cmp.Diff([]string{"a", "b", "c"}, Tokens(rs)); diff != "" {
		t.Errorf("Tokens (-want +got):\n%s", diff)
	}
	// No refusals is an empty list, not nil: it is written as [] in JSON.
	if got := Tokens(nil); got == nil || len(got) != 0 {
		t.Errorf("Tokens(nil) = %#v, want []string{}", got)
	}
}
