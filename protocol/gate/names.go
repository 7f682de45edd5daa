package gate

import "sort"

// Scopes that callers outside this package name (§3.2).
const (
	// ScopeProject blocks every action of every work unit.
	ScopeProject = scopeProject
	// ScopeWorkUnit blocks every action of one work unit; it is the default.
	ScopeWorkUnit = scopeUnit
	// ScopeMerge blocks the merge of one work unit.
	ScopeMerge = "merge"
)

// IsOwnerOnlyCategory reports whether c is one of the owner-only categories.
func IsOwnerOnlyCategory(c string) bool { return ownerOnlyCategories[c] }

// IsScope reports whether s is a scope a gate may block.
func IsScope(s string) bool { return scopes[s] }

// OwnerOnlyCategories returns the owner-only categories, sorted.
func OwnerOnlyCategories() []string { return sorted(ownerOnlyCategories) }

// ExternalEffects returns the external effects a gate may name, sorted.
func ExternalEffects() []string { return sorted(externalEffects) }

// Scopes returns the scopes a gate may block, sorted.
func Scopes() []string { return sorted(scopes) }

// EffectProblem says why eff may not be a gate's external effect, with the
// refusal token and the message Replay gives (§3.2: a self-authorised effect
// is "not an external effect: do it on your own authority"). Both are empty
// when eff is an external effect.
func EffectProblem(eff string) (token, msg string) { return checkEffect(eff) }

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
