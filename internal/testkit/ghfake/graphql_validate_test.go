package ghfake

import (
	"strings"
	"testing"
)

func TestValidateQuery(t *testing.T) {
	tests := []struct {
		name, query, wantErr string
	}{
		{"valid", `query { viewer { login } }`, ""},
		{"unknown field", `query { viewer { nickname } }`, "nickname"},
		{"syntax", `query { viewer {`, "validate query"},
		{"unknown timeline type", `query { repository(owner: "a", name: "b") { issue(number: 1) { timelineItems(first: 1, itemTypes: [PUSHED_EVENT]) { totalCount } } } }`, "PUSHED_EVENT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateQuery(tt.query)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("ValidateQuery = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
