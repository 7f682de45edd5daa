package gitsha

import "testing"

func TestShort(t *testing.T) {
	for _, tc := range []struct {
		name, sha, want string
	}{
		{"empty", "", ""},
		{"shorter", "abc123", "abc123"},
		{"exactly twelve", "0123456789ab", "0123456789ab"},
		{"thirteen", "0123456789abc", "0123456789ab"},
		{"full sha", "7f3e9c1d2b4a5f6e7d8c9b0a1f2e3d4c5b6a7980", "7f3e9c1d2b4a"},
		{"case kept", "ABCDEF0123456789", "ABCDEF012345"},
		{"placeholder kept", "(none)", "(none)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Short(tc.sha); got != tc.want {
				t.Errorf("Short(%q) = %q, want %q", tc.sha, got, tc.want)
			}
		})
	}
}
