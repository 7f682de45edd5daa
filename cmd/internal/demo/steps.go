package demo

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"
)

// Step is one beat of the story as the timeline records it.
type Step struct {
	// N numbers the step from 1.
	N int `json:"n"`
	// Title says what happened, e.g. "olivia comments /aep hold …".
	Title string `json:"title"`
	// Detail is what GitHub showed in answer (a refusal's reply, a
	// command's output), if anything.
	Detail string `json:"detail,omitempty"`
	// Refused marks a step whose action the App (or GitHub) refused.
	Refused bool `json:"refused,omitempty"`
	// Changes are the check runs that changed during the step.
	Changes []Change `json:"changes"`
	// ElapsedMS is when the step ended, from the start of the story.
	ElapsedMS int64 `json:"elapsed_ms"`
}

// Change is one check run's move: from "" (none yet) to a state, where a
// state is a conclusion or, while running, the status.
type Change struct {
	Commit string `json:"commit"` // the story's name for the commit
	SHA    string `json:"sha"`
	Name   string `json:"name"`
	From   string `json:"from"`
	To     string `json:"to"`
	Title  string `json:"title"` // the run's title after the change
}

// beat is a step to play: act, then wait until the App has answered.
type beat struct {
	title string
	act   func() error
	// until is the answer the step waits for; what names it for a timeout.
	until func() bool
	what  string
	// detail, when set, reads what GitHub shows once the step settled.
	detail  func() (string, error)
	refused bool
	// titled, when set, names the step once it settled (its title says
	// what the step found).
	titled func() string
}

// recorder keeps the commits the story watches and the steps played.
type recorder struct {
	w       *world
	start   time.Time
	total   int
	commits []commit
	steps   []Step
}

// commit is a commit the story watches, with the name it prints.
type commit struct{ label, sha string }

func newRecorder(w *world) *recorder { return &recorder{w: w, start: time.Now()} }

// watch adds a commit whose check runs the steps report; a commit
// already watched keeps its first label (the increment's integrated commit
// may be the merge commit).
func (r *recorder) watch(label, sha string) {
	if r.label(sha) == "" {
		r.commits = append(r.commits, commit{label, sha})
	}
}

// label is the name a watched commit prints, "" when sha is not watched.
func (r *recorder) label(sha string) string {
	for _, c := range r.commits {
		if c.sha == sha {
			return c.label
		}
	}
	return ""
}

// state is every watched commit's newest check run per name.
func (r *recorder) state() map[[2]string]string {
	out := map[[2]string]string{}
	for _, c := range r.commits {
		for _, run := range r.w.repo.CheckRuns(c.sha) {
			s := run.Conclusion
			if run.Status != "completed" {
				s = run.Status
			}
			out[[2]string{c.sha, run.Name}] = s + "\x00" + run.Title
		}
	}
	return out
}

// play runs b: acts, waits for its answer and for the check runs to
// settle, then records and prints the step.
func (r *recorder) play(b beat) error {
	n := len(r.steps) + 1
	before := r.state()
	r.w.tick()
	if b.act != nil {
		if err := b.act(); err != nil {
			return fmt.Errorf("step %d (%s): %w", n, b.title, err)
		}
	}
	if b.until != nil && !r.w.waitFor(b.until) {
		if err := r.w.ctx.Err(); err != nil {
			return fmt.Errorf("step %d (%s): interrupted: %w", n, b.title, err)
		}
		return fmt.Errorf("step %d (%s): timed out after %v waiting for %s; check runs now: %s", n, b.title, r.w.wait, b.what, r.describe())
	}
	after := r.settled()
	st := Step{N: n, Title: b.title, Refused: b.refused, Changes: r.diff(before, after)}
	if b.titled != nil {
		st.Title = b.titled()
	}
	if b.detail != nil {
		d, err := b.detail()
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", n, b.title, err)
		}
		st.Detail = d
	}
	st.ElapsedMS = time.Since(r.start).Milliseconds()
	r.steps = append(r.steps, st)
	r.print(st)
	return nil
}

// describe lists the newest watched commit's check runs and their titles.
func (r *recorder) describe() string {
	if len(r.commits) == 0 {
		return "none"
	}
	c := r.commits[len(r.commits)-1]
	var out []string
	for _, run := range r.w.repo.CheckRuns(c.sha) {
		out = append(out, fmt.Sprintf("%s %s/%s %q", run.Name, run.Status, run.Conclusion, run.Title))
	}
	return c.label + ": " + strings.Join(out, "; ")
}

// settled waits until the check runs stay unchanged for w.settle.
func (r *recorder) settled() map[[2]string]string {
	cur := r.state()
	stable := time.Now()
	deadline := time.Now().Add(r.w.wait)
	for time.Since(stable) < r.w.settle && time.Now().Before(deadline) {
		time.Sleep(r.w.settle / 5)
		next := r.state()
		if !maps.Equal(cur, next) {
			cur, stable = next, time.Now()
		}
	}
	return cur
}

// diff lists what changed, in the order the commits were watched.
func (r *recorder) diff(before, after map[[2]string]string) []Change {
	out := []Change{}
	for _, c := range r.commits {
		var names []string
		for k := range after {
			if k[0] == c.sha && after[k] != before[k] {
				names = append(names, k[1])
			}
		}
		sort.Strings(names)
		for _, name := range names {
			k := [2]string{c.sha, name}
			from, _, _ := strings.Cut(before[k], "\x00")
			to, title, _ := strings.Cut(after[k], "\x00")
			out = append(out, Change{Commit: c.label, SHA: c.sha, Name: name, From: from, To: to, Title: title})
		}
	}
	return out
}

// print writes the step's line: progress, what happened, what changed.
func (r *recorder) print(st Step) {
	var parts []string
	for _, c := range st.Changes {
		from := c.From
		if from == "" {
			from = "–"
		}
		if c.From == c.To {
			parts = append(parts, fmt.Sprintf("%s %s (%q)", c.Name, c.To, c.Title))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s→%s", c.Name, from, c.To))
	}
	line := fmt.Sprintf("[%2d/%d %s] %s", st.N, r.total, bar(st.N, r.total), st.Title)
	if len(parts) > 0 {
		line += " ⇒ " + strings.Join(parts, ", ")
	}
	if st.Detail != "" {
		line += "\n        " + strings.ReplaceAll(firstLines(st.Detail, 3), "\n", "\n        ")
	}
	fmt.Fprintln(r.w.o.Progress, line)
}

// bar is a ten-cell progress bar.
func bar(n, total int) string {
	if total <= 0 {
		total = n
	}
	k := min(10, n*10/max(total, 1))
	return strings.Repeat("█", k) + strings.Repeat("░", 10-k)
}

// firstLines keeps the first n non-empty lines of s.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(out) < n {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// tick moves the simulated GitHub's clock a second past both itself and
// the wall clock, so each step's comments and reviews are ordered in time
// as GitHub's (second-resolution) timestamps show them.
func (w *world) tick() {
	next := w.f.Now().Add(time.Second)
	if now := time.Now(); now.After(next) {
		next = now
	}
	w.f.SetNow(next)
}

// waitFor polls cond until it holds, w.wait passes or the run is
// interrupted.
func (w *world) waitFor(cond func() bool) bool {
	deadline := time.Now().Add(w.wait)
	for !cond() {
		if time.Now().After(deadline) || w.ctx.Err() != nil {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
