package appcmd

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParsePrefixes: CIDR ranges are masked, bare addresses become one
// address's range, anything else is an error naming the flag.
func TestParsePrefixes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		in      []string
		want    []string
		wantErr bool
	}{
		{"none", nil, nil, false},
		{"ranges and addresses", []string{"10.1.2.3/8", "192.0.2.7", "2001:db8::1", "::ffff:198.51.100.1"},
			[]string{"10.0.0.0/8", "192.0.2.7/32", "2001:db8::1/128", "198.51.100.1/32"}, false},
		{"host name", []string{"proxy.internal"}, nil, true},
		{"bad bits", []string{"10.0.0.0/33"}, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePrefixes("--trusted-proxies", tt.in)
			if (err != nil) != tt.wantErr || (err != nil && !strings.Contains(err.Error(), "--trusted-proxies")) {
				t.Fatalf("error %v, want error %v naming the flag", err, tt.wantErr)
			}
			var s []string
			for _, p := range got {
				s = append(s, p.String())
			}
			if diff := cmp.Diff(tt.want, s); diff != "" {
				t.Errorf("prefixes (-want +got):\n%s", diff)
			}
		})
	}
}
