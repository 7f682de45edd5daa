package workunit

import "testing"

func TestSoleUnit(t *testing.T) {
	tests := []struct {
		name, body string
		want       int
		ok         bool
	}{
		{"one", "Work-unit: #12", 12, true},
		{"own repo spelled out", "Fixes acme/app#12", 12, true},
		{"none", "Bump lodash", 0, false},
		{"two", "Work-unit: #12\nFixes #13", 0, false},
		{"another repository", "Work-unit: other/repo#12", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SoleUnit(tt.body, "acme/app")
			if got != tt.want || ok != tt.ok {
				t.Errorf("SoleUnit(%q) = %d, %v; want %d, %v", tt.body, got, ok, tt.want, tt.ok)
			}
		})
	}
}
