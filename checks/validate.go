package checks

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Validate reports, all at once, what GitHub would refuse in r or what
// breaks aepgate's addressing of runs: a missing name, a head SHA that is
// not 40 hex characters, an unknown status, conclusion or level, a completed
// run without a conclusion, an annotation without path, lines or message,
// more than MaxActions actions, or an action field over its limit. Call it on
// Fit(r): Validate does not cut, it judges.
func Validate(r Run) error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if r.Name == "" {
		add("check run: name is empty")
	}
	if !isSHA(r.HeadSHA) {
		add("check run %q: head SHA %q is not 40 hexadecimal characters", r.Name, r.HeadSHA)
	}
	if err := validateState(r); err != nil {
		errs = append(errs, err)
	}
	if n := utf8.RuneCountInString(r.Title); n > MaxTitleChars {
		add("check run %q: title has %d characters, more than %d", r.Name, n, MaxTitleChars)
	}
	if len(r.Summary) > MaxSummaryBytes || len(r.Text) > MaxTextBytes {
		add("check run %q: summary or text exceeds 65535 bytes (call Fit first)", r.Name)
	}
	for i, a := range r.Annotations {
		if err := validateAnnotation(a); err != nil {
			add("check run %q: annotation %d: %w", r.Name, i+1, err)
		}
	}
	if len(r.Actions) > MaxActions {
		add("check run %q: %d actions, GitHub accepts at most %d", r.Name, len(r.Actions), MaxActions)
	}
	for i, a := range r.Actions {
		if err := validateAction(a); err != nil {
			add("check run %q: action %d: %w", r.Name, i+1, err)
		}
	}
	return errors.Join(errs...)
}

func validateState(r Run) error {
	switch r.EffectiveStatus() {
	case StatusQueued, StatusInProgress:
		if r.Conclusion != "" {
			return fmt.Errorf("check run %q: conclusion %q with status %q (a conclusion completes the run)", r.Name, r.Conclusion, r.Status)
		}
	case StatusCompleted:
		switch r.Conclusion {
		case ConclusionSuccess, ConclusionFailure, ConclusionNeutral, ConclusionCancelled,
			ConclusionSkipped, ConclusionTimedOut, ConclusionActionRequired:
		case "":
			return fmt.Errorf("check run %q: completed without a conclusion", r.Name)
		default:
			return fmt.Errorf("check run %q: unknown conclusion %q", r.Name, r.Conclusion)
		}
	default:
		return fmt.Errorf("check run %q: unknown status %q", r.Name, r.Status)
	}
	return nil
}

func validateAnnotation(a Annotation) error {
	var errs []error
	if a.Path == "" {
		errs = append(errs, errors.New("path is empty"))
	}
	if a.StartLine < 1 || (a.EndLine != 0 && a.EndLine < a.StartLine) {
		errs = append(errs, fmt.Errorf("lines %d-%d are not a 1-based range", a.StartLine, a.EndLine))
	}
	switch a.Level {
	case LevelNotice, LevelWarning, LevelFailure:
	default:
		errs = append(errs, fmt.Errorf("unknown level %q", a.Level))
	}
	if a.Message == "" {
		errs = append(errs, errors.New("message is empty"))
	}
	if n := utf8.RuneCountInString(a.Title); n > MaxTitleChars {
		errs = append(errs, fmt.Errorf("title has %d characters, more than %d", n, MaxTitleChars))
	}
	if len(a.Message) > MaxAnnotationMessageBytes || len(a.RawDetails) > MaxAnnotationRawDetailsBytes {
		errs = append(errs, errors.New("message or raw details exceed 64 KB (call Fit first)"))
	}
	return errors.Join(errs...)
}

func validateAction(a Action) error {
	var errs []error
	check := func(field, v string, max int) {
		switch n := utf8.RuneCountInString(v); {
		case n == 0:
			errs = append(errs, fmt.Errorf("%s is empty", field))
		case n > max:
			errs = append(errs, fmt.Errorf("%s %q has %d characters, more than %d", field, v, n, max))
		}
	}
	check("label", a.Label, MaxActionLabelChars)
	check("description", a.Description, MaxActionDescriptionChars)
	check("identifier", a.Identifier, MaxActionIdentifierChars)
	return errors.Join(errs...)
}

func isSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
