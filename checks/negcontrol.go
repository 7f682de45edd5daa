package checks

import (
	"fmt"
	"strings"
)

// ControlOutcome is one declared negative control's result.
type ControlOutcome struct {
	// Name is the control's name from the config.
	Name string
	// OK is true only when the control was verified: the test failed
	// without the protection and passed with it.
	OK bool
	// Verdict is negcontrol's "OK: …" or "FAIL: …" line.
	Verdict string
	// Warning is a crash-signature warning, if any.
	Warning string
	// Transcript is the paste-ready evidence.
	Transcript string
	// Seconds is the wall time.
	Seconds float64
	// Err says why the control could not run at all.
	Err string
	// ConfigLine is the control's line in the config file (0 if unknown).
	ConfigLine int
}

// NegControlRun renders the aep/negative-controls check run: a table of
// the controls with their verdicts and each transcript in the text. Any
// control not verified fails the check; no declared controls is neutral.
// configPath locates failure annotations on the control's config line.
func NegControlRun(sha, configPath string, outs []ControlOutcome) Run {
	r := Run{Name: NameNegativeControls, HeadSHA: sha, ExternalID: ActionExternalID(NameNegativeControls, sha)}
	failed := 0
	for _, o := range outs {
		if o.OK {
			continue
		}
		failed++
		if o.ConfigLine > 0 && configPath != "" {
			r.Annotations = append(r.Annotations, Annotation{
				Path: configPath, StartLine: o.ConfigLine, EndLine: o.ConfigLine, Level: LevelFailure,
				Title: "negative control " + o.Name + " not verified", Message: controlResult(o),
			})
		}
	}
	switch {
	case len(outs) == 0:
		r.Conclusion, r.Title = ConclusionNeutral, "no negative controls declared"
	case failed == 0:
		r.Conclusion, r.Title = ConclusionSuccess, plural(len(outs), "control", "controls")+" verified"
	default:
		r.Conclusion, r.Title = ConclusionFailure, fmt.Sprintf("%d of %d controls not verified", failed, len(outs))
	}
	var b strings.Builder
	b.WriteString("## aepgate negative controls\n\n")
	if len(outs) == 0 {
		b.WriteString("The config declares no `negative_controls`, so none ran.\n")
	} else {
		rows := make([][]string, 0, len(outs))
		for _, o := range outs {
			rows = append(rows, []string{code(o.Name), controlResult(o), fmt.Sprintf("%.1f s", o.Seconds)})
		}
		table(&b, []string{"Control", "Result", "Time"}, rows)
		b.WriteString("\nEach control breaks its protection, watches the test fail, restores it and watches the test pass; the transcripts are below.\n")
	}
	r.Summary = b.String() + DocsFooter(r.Name)
	var t strings.Builder
	for _, o := range outs {
		if o.Transcript == "" {
			continue
		}
		fmt.Fprintf(&t, "### %s\n\n", code(o.Name))
		fenced(&t, "text", o.Transcript)
		t.WriteString("\n")
	}
	r.Text = t.String()
	return r
}

func controlResult(o ControlOutcome) string {
	var s string
	switch {
	case o.Err != "":
		s = "❌ could not run: " + o.Err
	case o.OK:
		s = "✅ " + o.Verdict
	default:
		s = "❌ " + o.Verdict
	}
	if o.Warning != "" {
		s += "\n⚠️ " + o.Warning
	}
	return s
}
