package verdict

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestOwnerAuthorsASCIIOnly: only a comment author equal to a listed owner
// in ASCII case has its permission asked; a Kelvin-sign or long-s
// lookalike is nobody's owner.
func TestOwnerAuthorsASCIIOnly(t *testing.T) {
	by := func(login string) snapshot.Comment {
		return snapshot.Comment{Author: snapshot.Actor{Login: login, Type: "User"}}
	}
	snap := &snapshot.PR{UnitComments: map[int]snapshot.Thread{7: {Comments: []snapshot.Comment{
		by("\u212Aate"), by("\u017Fam"), by("KATE"), by("kate"), by("Sam"),
	}}}}
	got := OwnerAuthors(snap, []string{"kate", "sam"}, 7, nil)
	if diff := cmp.Diff([]string{"KATE", "Sam"}, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("OwnerAuthors (-want +got):\n%s", diff)
	}
}
