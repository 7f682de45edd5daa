package login

import (
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"same", "alice", "alice", true},
		{"ASCII case", "Alice", "aLICE", true},
		{"bot", "aepgate[bot]", "AepGate[Bot]", true},
		{"different", "alice", "alicia", false},
		{"prefix", "alice", "alice-2", false},
		{"empty", "", "", false},
		{"one empty", "alice", "", false},
		{"kelvin sign is not k", "\u212Aate", "kate", false},
		{"long s is not s", "\u017Fam", "sam", false},
		{"dotless i is not i", "\u0131an", "ian", false},
		{"non-ASCII never equals, even itself", "\u212Aate", "\u212Aate", false},
		{"the same letters in another script", "аlice", "alice", false}, // Cyrillic а
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Equal(tt.a, tt.b); got != tt.want {
				t.Errorf("Equal(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := Equal(tt.b, tt.a); got != tt.want {
				t.Errorf("Equal(%q, %q) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

// TestEqualNegativeControl: strings.EqualFold, the comparison Equal
// replaces, lets the Kelvin-sign and long-s logins through.
func TestEqualNegativeControl(t *testing.T) {
	for _, p := range [][2]string{{"\u212Aate", "kate"}, {"\u017Fam", "sam"}} {
		if !strings.EqualFold(p[0], p[1]) {
			t.Errorf("strings.EqualFold(%q, %q) = false; the control shows nothing", p[0], p[1])
		}
		if Equal(p[0], p[1]) {
			t.Errorf("Equal(%q, %q) = true", p[0], p[1])
		}
	}
}

func TestIn(t *testing.T) {
	list := []string{"Alice", "carol"}
	for login, want := range map[string]bool{"alice": true, "CAROL": true, "bob": false, "": false, "\u212Aarol": false} {
		if got := In(list, login); got != want {
			t.Errorf("In(%q, %q) = %v, want %v", list, login, got, want)
		}
	}
}

// FuzzEqual checks Equal against its definition: ASCII-only strings equal
// after ASCII lower-casing; nothing else equals.
func FuzzEqual(f *testing.F) {
	f.Add("Alice", "alice")
	f.Add("\u212A", "k")
	f.Fuzz(func(t *testing.T, a, b string) {
		ascii := func(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return r >= 0x80 }) < 0 }
		lowerASCII := func(s string) string {
			return strings.Map(func(r rune) rune {
				if 'A' <= r && r <= 'Z' {
					return r + 'a' - 'A'
				}
				return r
			}, s)
		}
		want := a != "" && ascii(a) && ascii(b) && lowerASCII(a) == lowerASCII(b)
		if got := Equal(a, b); got != want {
			t.Fatalf("Equal(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}
