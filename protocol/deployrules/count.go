package deployrules

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/gate"
)

// waitingFor says what deploy gate id waits for: the owner's answer, and,
// when its category needs more than one owner (gates.<category>.approvals),
// who answered each choice and how many more distinct owners must.
func waitingFor(st gate.State, id string) string {
	s := fmt.Sprintf("waiting for the owner to answer gate %s on the control issue", id)
	for _, c := range st.Counts[id] {
		s += fmt.Sprintf("; %q: %s", c.Choice, c.Reason())
	}
	return s
}
