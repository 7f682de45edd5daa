package boardview

import "testing"

// TestReadbackOwed: with merge authority granted to a coordinator, a
// merged story shows "readback owed" until its pull request's readback is
// observed; without a grant (the negative control) it shows nothing owed.
func TestReadbackOwed(t *testing.T) {
	merged := pull(30, "MERGED")
	merged.MergeSHA, merged.MergedAt = "abc", t0
	owed := "readback owed: #30 merged and its readback on the default branch is not observed yet (merge authority granted to carol)"
	closed := func() Issue { i := issue(1, merged); i.Open = false; return i }()
	tests := []struct {
		name         string
		is           Issue
		coordinators []string
		readBack     map[int]bool
		want         string
	}{
		{"granted, not observed", issue(1, merged), []string{"carol"}, nil, owed},
		{"granted, observed", issue(1, merged), []string{"carol"}, map[int]bool{30: true}, ""},
		{"granted, closed by the merge, not observed", closed, []string{"carol"}, nil, owed},
		{"no grant", issue(1, merged), nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil, tt.is)
			in.MergeCoordinators, in.ReadBack = tt.coordinators, tt.readBack
			s := Build(in).Increments[0].Stories[0]
			if s.State != StateMerged || s.Reason != tt.want {
				t.Errorf("state = %q (%q), want merged (%q)", s.State, s.Reason, tt.want)
			}
		})
	}
}
