package certificate

import (
	"sort"
	"testing"
)

func FuzzValidate(f *testing.F) {
	f.Add(encode(f, baseline()))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"requiredCiRunIds":[1,"1",null],"mergedMainRunIds":"x","schemaVersion":1.0}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := Validate(raw)
		if got.Valid != (len(got.Errors) == 0) {
			t.Fatalf("valid=%v with errors %v", got.Valid, got.Errors)
		}
		if !sort.StringsAreSorted(got.Errors) {
			t.Fatalf("errors not sorted: %v", got.Errors)
		}
		for i := 1; i < len(got.Errors); i++ {
			if got.Errors[i] == got.Errors[i-1] {
				t.Fatalf("errors not unique: %v", got.Errors)
			}
		}
		if len(got.Refusals) < len(got.Errors) {
			t.Fatalf("a token without an explanation: %v", got.Errors)
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	raw := encode(b, baseline())
	b.ReportAllocs()
	for b.Loop() {
		if !Validate(raw).Valid {
			b.Fatal("invalid")
		}
	}
}
