package plans

import (
	"encoding/json"
	"path"
)

// skillProgress is progress.json in the Executor skill's dialect, read as
// docs/plans.md chooses (executor-state: the skill names its parts but
// publishes no schema): no version, slug or owner; a "commands" block;
// phases with a name. Keys not listed here are read past and left in the
// file, never refused.
type skillProgress struct {
	SharedContracts json.RawMessage `json:"shared_contracts"`
	Commands        *Commands       `json:"commands"`
	Phases          []skillPhase    `json:"phases"`
}

type skillPhase struct {
	ID            int            `json:"id"`
	Name          string         `json:"name"`
	Title         string         `json:"title"`
	DependsOn     []int          `json:"depends_on"`
	ParallelSafe  bool           `json:"parallel_safe"`
	ConflictZones []string       `json:"conflict_zones"`
	Tasks         []skillTaskDef `json:"tasks"`
}

type skillTaskDef struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	VerifyCommand string `json:"verify_command"`
}

// parseSkillProgress decodes a skill-dialect progress.json into a
// Progress. Its slug is the folder's name; it has no owner (the skill's
// plan is owned by the repository's owners, whom the file does not name).
func parseSkillProgress(file string, data []byte) (*Progress, *errs, bool) {
	var sk skillProgress
	e, ok := decodeAs(file, data, &sk, false)
	p := &Progress{Dialect: DialectSkill, Slug: path.Base(path.Dir(file)), Commands: sk.Commands, lines: e.lines}
	if !ok {
		return p, e, false
	}
	for _, ph := range sk.Phases {
		out := Phase{ID: ph.ID, Title: ph.Title, Name: ph.Name, DependsOn: ph.DependsOn,
			ParallelSafe: ph.ParallelSafe, ConflictZones: ph.ConflictZones}
		for _, t := range ph.Tasks {
			out.Tasks = append(out.Tasks, Task(t))
		}
		p.Phases = append(p.Phases, out)
	}
	return p, e, true
}
