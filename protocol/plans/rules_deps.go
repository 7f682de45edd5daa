package plans

import (
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/config"
)

// checkDependencies: the pull request's phase is claimed only when every
// phase it depends on is approved at base.
func checkDependencies(in Input) []Finding {
	s := in.Head.States[in.PR.Phase]
	ph := in.Head.Progress.phase(in.PR.Phase)
	if s == nil || ph == nil {
		return nil
	}
	var out []Finding
	for _, d := range ph.DependsOn {
		if !in.Base.approved(d) {
			out = append(out, Finding{Rule: "dependencies", File: in.Head.StatePath(in.PR.Phase), Line: s.Line("status"),
				Message: fmt.Sprintf("phase %d is claimed but phase %d it depends on has no approving review file", ph.ID, d)})
		}
	}
	return out
}

// checkParallel: the pull request's phase runs alongside other unapproved
// claimed phases only when all of them are parallel_safe.
func checkParallel(in Input) []Finding {
	s := in.Head.States[in.PR.Phase]
	ph := in.Head.Progress.phase(in.PR.Phase)
	if s == nil || ph == nil {
		return nil
	}
	var out []Finding
	for _, other := range in.Head.Progress.Phases {
		if other.ID == ph.ID || in.Head.States[other.ID] == nil || in.Head.approved(other.ID) {
			continue
		}
		if !ph.ParallelSafe || !other.ParallelSafe {
			out = append(out, Finding{Rule: "parallel", File: in.Head.StatePath(ph.ID), Line: s.Line("status"),
				Message: fmt.Sprintf("phases %d and %d run at once but not both are parallel_safe", ph.ID, other.ID)})
		}
	}
	return out
}

// checkConflictZones: the pull request touches no file in another phase's
// conflict_zones.
func checkConflictZones(in Input) []Finding {
	p := in.Head.Progress
	var out []Finding
	for _, f := range in.PR.Changed {
		if inside(in.Head.Dir, f) != "" {
			continue
		}
		for i, ph := range p.Phases {
			if ph.ID == in.PR.Phase {
				continue
			}
			j := slices.IndexFunc(ph.ConflictZones, func(z string) bool { return config.MatchPath(z, f) })
			if j >= 0 {
				out = append(out, Finding{Rule: "conflict-zones", File: in.Head.ProgressPath(),
					Line:    p.Line(fmt.Sprintf("phases[%d].conflict_zones[%d]", i, j)),
					Message: fmt.Sprintf("%s is in phase %d's conflict zone %q", f, ph.ID, ph.ConflictZones[j])})
			}
		}
	}
	return out
}
