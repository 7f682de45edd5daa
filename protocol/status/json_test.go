package status

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// encodingJSON is the reference AppendJSON is held to: encoding/json's
// Encoder without HTML escaping, indented by two spaces.
func encodingJSON(t testing.TB, r Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// oddReport holds every shape the encoder writes from s and w: strings to
// escape, optional fields set and unset, a conflict, a weight.
func oddReport(s string, w float64) Report {
	return Report{
		Version: 1, Dir: s,
		Items: []Item{
			{ID: s, Phase: &s, State: s, Verdict: &s, Report: &s, Executor: &s, Conflict: &Conflict{StatusBoard: s, ReportHeader: s}},
			{ID: "P0-T1", State: "PENDING"},
		},
		Phases:     []Phase{{ID: s, Title: &s, Weight: w}, {ID: "P1", Weight: 1}},
		Counts:     map[string]int{s: 3, "PENDING": 1, "APPROVED": 0},
		Open:       []string{s, "P0-T1"},
		MostRecent: &s,
	}
}

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		name string
		r    Report
	}{
		{"zero", Report{}},
		{"empty", Report{Items: []Item{}, Phases: []Phase{}, Counts: map[string]int{}, Open: []string{}}},
		{"plain", oddReport("P2-G1", 2.5)},
		{"escapes", oddReport("a\"b\\c\n\r\t\b\f\x00\x1f\x7f<p>&", 0)},
		{"unicode", oddReport("é — \u2028\u2029 \xff\xfe ok \U0001F600", math.Copysign(0, -1))},
		{"tiny", oddReport("x", 1e-7)},
		{"huge", oddReport("x", 1e21)},
		{"edge", oddReport("x", 1e-6)},
		{"negative", oddReport("x", -3.25e-9)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.r.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(encodingJSON(t, tt.r)), string(got)); diff != "" {
				t.Errorf("AppendJSON differs from encoding/json (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendJSONNotFinite(t *testing.T) {
	for _, w := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := oddReport("x", w).AppendJSON(nil); err == nil {
			t.Errorf("weight %v: no error", w)
		}
	}
}

func FuzzAppendJSON(f *testing.F) {
	f.Add("P0-T1", 1.0)
	f.Add("a\"\\\n\u2028\xff<", 1e-7)
	f.Fuzz(func(t *testing.T, s string, w float64) {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return
		}
		r := oddReport(s, w)
		got, err := r.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := encodingJSON(t, r); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON differs from encoding/json:\n%s\nwant:\n%s", got, want)
		}
	})
}

// chunkWriter records the size of each write, and fails after failAfter
// writes when that is positive.
type chunkWriter struct {
	bytes.Buffer
	sizes     []int
	failAfter int
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	if w.failAfter > 0 && len(w.sizes) == w.failAfter {
		return 0, errWrite
	}
	w.sizes = append(w.sizes, len(p))
	return w.Buffer.Write(p)
}

var errWrite = errors.New("disk full")

// TestWriteJSONStreamsTheSameBytes: WriteJSON writes exactly AppendJSON's
// bytes, in chunks (no write is the whole document of a large report), and
// a failed write is its error.
func TestWriteJSONStreamsTheSameBytes(t *testing.T) {
	r := oddReport("P1-T1 <&> \"q\"", 2.5)
	for i := range 5000 {
		r.Items = append(r.Items, Item{ID: fmt.Sprintf("P9-T%d", i), State: "PENDING"})
	}
	want, err := r.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	var w chunkWriter
	if err := r.WriteJSON(&w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), w.String()); diff != "" {
		t.Fatalf("WriteJSON differs from AppendJSON (-want +got):\n%s", diff)
	}
	if len(w.sizes) < 2 || slices.Max(w.sizes) >= len(want) {
		t.Errorf("writes of %v bytes for a %d-byte document, want it in chunks", w.sizes, len(want))
	}
	bad := chunkWriter{failAfter: 1}
	if err := r.WriteJSON(&bad); !errors.Is(err, errWrite) {
		t.Errorf("WriteJSON to a failing writer: %v, want %v", err, errWrite)
	}
}
