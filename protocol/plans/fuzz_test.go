package plans

import (
	"bytes"
	"errors"
	"testing"
)

func seeds(f *testing.F) {
	f.Add([]byte(`{"version":1,"slug":"a","owner":"o","phases":[{"id":1,"title":"t","tasks":[{"id":"1.1","title":"x"}]}]}`))
	f.Add([]byte(`{"version":1,"phase":1,"executor":"e","status":"claimed","tasks":[{"id":"1.1","status":"done","commit":"` + sha1 + `"}],"verification":[{"command":"c","exit_code":0}]}`))
	f.Add([]byte(`{"version":1,"phase":1,"reviewer":"r","verdict":"approved","commit":"` + sha1 + `"}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[{}]]]]]]]]]]]]]]]]]]]]]]`))
	f.Add([]byte("{\n\"x\": 1}"))
	f.Add([]byte(skillExample))
	f.Add([]byte(`{"commands":{"test":"t"},"phases":[{"id":1,"name":"a","conflict_zones":["x"],"tasks":[{"id":"1.1","verify_command":"v"}]}],"k":{}}`))
}

// checkErr fails unless err is nil or Errors with sane positions.
func checkErr(t *testing.T, data []byte, err error) {
	if err == nil {
		return
	}
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("error %v is not Errors", err)
	}
	for _, e := range es {
		if e.Line < 0 || e.Line > len(data)+1 {
			t.Fatalf("line %d out of range for %d bytes", e.Line, len(data))
		}
	}
}

func FuzzParseProgress(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProgress("p.json", data)
		checkErr(t, data, err)
		if err == nil {
			_ = Check(Input{Base: Plan{Progress: p}, Head: Plan{Progress: p}}, Rules())
		}
	})
}

func FuzzParseState(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseState("s.json", data)
		checkErr(t, data, err)
	})
}

func FuzzParseReview(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseReview("r.json", data)
		checkErr(t, data, err)
	})
}

func FuzzHandoff(f *testing.F) {
	f.Add(handoff(2), 2)
	f.Add([]byte("## Handoff — phase 2 — x\n### Ruled out\n## other\n### Blockers"), 2)
	f.Fuzz(func(t *testing.T, doc []byte, n int) {
		line, missing := handoffGaps(doc, n)
		if line < 0 || len(missing) > len(HandoffSections) || (line == 0 && missing != nil) {
			t.Fatalf("handoffGaps = %d, %v", line, missing)
		}
	})
}

// FuzzParseBrief: any brief parses without panic, every position is a line
// of the input, and the rules run on the result.
func FuzzParseBrief(f *testing.F) {
	f.Add([]byte("## Pre-conditions\nTask 1.1\n```\ntrue\n```\n### Task 2.1: a\nFiles:\n- `x`\nverify_command: `go test`\nPre-conditions: Task 1.1\n"))
	f.Add([]byte("```\n### Task 1: a\n~~~\n```\n### task 1 — b\n**Files:** `a` `b`\n"))
	f.Add([]byte("### Task ``x``\n- ``\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseBrief("b.md", 2, data)
		checkErr(t, data, err)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, bt := range b.Tasks {
			if bt.Line < 1 || bt.Line > lines || bt.FilesLine > lines || bt.VerifyLine > lines {
				t.Fatalf("task %+v: lines out of range (%d)", bt, lines)
			}
		}
		in := briefFuzzInput(b)
		_ = Check(in, Rules())
	})
}

// briefFuzzInput is a phase-2 change judged by brief b.
func briefFuzzInput(b *Brief) Input {
	p := &Progress{Dialect: DialectSkill, Phases: []Phase{{ID: 1, Tasks: []Task{{ID: "1.1"}}}, {ID: 2, Tasks: []Task{{ID: "2.1"}}}}}
	st := &State{Dialect: DialectSkill, Phase: 2, Tasks: []TaskState{{ID: "2.1", Status: TaskDone, Commit: sha1[:7]}}}
	head := Plan{Dir: "plans/p", Progress: p, States: map[int]*State{2: st}, Briefs: map[int]*Brief{2: b}}
	return Input{Base: Plan{Dir: "plans/p"}, Head: head, PR: PR{Phase: 2, Commits: []Commit{{sha1, []string{"x", "y"}}},
		Changed: []string{"plans/p/state/phase-2.json", "x", "y"}}}
}
