package workunit

import (
	"fmt"
	"slices"
	"strings"
)

// CheckIncrement applies the increment rules to a milestone: 1–8 stories,
// every story's contract valid, at least one product story, acyclic
// dependencies among the stories, and a declared risk tier at least every
// story's risk. It returns every violation; none means the increment is
// valid.
func CheckIncrement(m Milestone) []string {
	var out []string
	spec, probs := ParseIncrement(m.Description)
	for _, p := range probs {
		out = append(out, fmt.Sprintf("milestone %q description: %s", m.Title, p))
	}
	n := len(m.Stories)
	if m.Truncated || n > maxStories {
		out = append(out, fmt.Sprintf("milestone %q has %s stories; an increment holds %d–%d", m.Title, countText(n, m.Truncated), minStories, maxStories))
	}
	if n < minStories {
		out = append(out, fmt.Sprintf("milestone %q has no stories; an increment holds %d–%d", m.Title, minStories, maxStories))
	}
	contracts := map[int]Contract{}
	var invalid []string
	for _, s := range m.Stories {
		c, probs := s.Effective()
		if len(probs) > 0 {
			invalid = append(invalid, fmt.Sprintf("#%d", s.Number))
			continue
		}
		contracts[s.Number] = c
	}
	if len(invalid) > 0 {
		out = append(out, fmt.Sprintf("milestone %q: the contracts of %s are invalid; the increment cannot be checked until they are fixed", m.Title, strings.Join(invalid, ", ")))
		return out
	}
	out = append(out, classAndRisk(m, spec, contracts)...)
	if cyc := findCycle(m, contracts); cyc != nil {
		out = append(out, fmt.Sprintf("milestone %q: dependency cycle %s", m.Title, cycleText(cyc)))
	}
	return out
}

func countText(n int, truncated bool) string {
	if truncated {
		return fmt.Sprintf("more than %d", n)
	}
	return fmt.Sprint(n)
}

// classAndRisk checks the product-story and risk-tier rules.
func classAndRisk(m Milestone, spec IncrementSpec, contracts map[int]Contract) []string {
	var out []string
	product := false
	for _, s := range m.Stories {
		c := contracts[s.Number]
		product = product || c.Class == ClassProduct
		if spec.Risk != "" && c.Risk.rank() > spec.Risk.rank() {
			out = append(out, fmt.Sprintf("milestone %q declares risk %s, which understates story #%d (risk %s)", m.Title, spec.Risk, s.Number, c.Risk))
		}
	}
	if len(m.Stories) > 0 && !product {
		out = append(out, fmt.Sprintf("milestone %q has no product story; an increment needs at least one story of class product", m.Title))
	}
	return out
}

// findCycle returns one dependency cycle among the milestone's stories (a
// path whose last element repeats an earlier one), or nil.
func findCycle(m Milestone, contracts map[int]Contract) []int {
	in := map[int]bool{}
	for _, s := range m.Stories {
		in[s.Number] = true
	}
	edges := map[int][]int{}
	for _, s := range m.Stories {
		deps := slices.Clone(contracts[s.Number].DependsOn)
		for _, d := range s.BlockedBy {
			if d.Repo == "" {
				deps = append(deps, d.Number)
			}
		}
		for _, d := range deps {
			if in[d] && !slices.Contains(edges[s.Number], d) {
				edges[s.Number] = append(edges[s.Number], d)
			}
		}
	}
	state := map[int]int{} // 0 unseen, 1 on the path, 2 done
	var path []int
	var visit func(int) []int
	visit = func(n int) []int {
		state[n] = 1
		path = append(path, n)
		for _, d := range edges[n] {
			switch state[d] {
			case 1:
				i := slices.Index(path, d)
				return append(slices.Clone(path[i:]), d)
			case 0:
				if c := visit(d); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = 2
		return nil
	}
	for _, s := range m.Stories {
		if state[s.Number] == 0 {
			if c := visit(s.Number); c != nil {
				return c
			}
		}
	}
	return nil
}

func cycleText(c []int) string {
	parts := make([]string, len(c))
	for i, n := range c {
		parts[i] = fmt.Sprintf("#%d", n)
	}
	return strings.Join(parts, " → ")
}
