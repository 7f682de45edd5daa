package plans

import (
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
