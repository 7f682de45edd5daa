package yamldoc

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		o    Options
		want error // nil: decodes
	}{
		{"mapping", "a: 1\nb: [x]\n", Options{}, nil},
		{"empty", "", Options{}, ErrEmpty},
		{"comments only", "# nothing\n", Options{}, ErrEmpty},
		{"scanner error", "a: 1\nb: \"x\n", Options{}, &SyntaxError{Line: 2, Message: "found unexpected end of stream"}},
		{"parser error counted from 0", "a: [1,\nb: 2\n", Options{}, &SyntaxError{Line: 2, Message: "did not find expected ',' or ']'"}},
		{"parser error corrected", "a: [1,\nb: 2\n", Options{ParserLines: true}, &SyntaxError{Line: 3, Message: "did not find expected ',' or ']'"}},
		{"second document read only when asked", "a: 1\n---\nb: [\n", Options{}, nil},
		{"second document refused", "a: 1\n---\nb: 2\n", Options{OneDocument: true}, &ExtraDocumentError{}},
		{"broken second document", "a: 1\n---\nb: \"x\n", Options{OneDocument: true}, &SyntaxError{Line: 3, Message: "found unexpected end of stream", InRest: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := Decode([]byte(tc.text), tc.o)
			var got error
			var syn *SyntaxError
			var extra *ExtraDocumentError
			switch {
			case errors.As(err, &syn):
				got = syn
			case errors.As(err, &extra):
				if extra.Node == nil || extra.Node.Line != 2 {
					t.Errorf("extra document node %+v, want it at its ---, line 2", extra.Node)
				}
				got = &ExtraDocumentError{}
			default:
				got = err
			}
			if tc.want == ErrEmpty {
				if !errors.Is(err, ErrEmpty) {
					t.Errorf("error %v, want ErrEmpty", err)
				}
			} else if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tc.want == nil && root == nil {
				t.Error("no root node")
			}
		})
	}
}

func TestPairsFlagsRepeats(t *testing.T) {
	root, err := Decode([]byte("a: 1\nb: 2\na: 3\nc: 4\nb: 5\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type kv struct {
		Key, Value string
		Line       int
		Repeat     bool
	}
	var got []kv
	for _, p := range Pairs(root) {
		got = append(got, kv{p.Key.Value, p.Value.Value, p.Key.Line, p.Repeat})
	}
	want := []kv{{"a", "1", 1, false}, {"b", "2", 2, false}, {"a", "3", 3, true}, {"c", "4", 4, false}, {"b", "5", 5, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	if ps := Pairs(root.Content[1]); ps != nil {
		t.Errorf("Pairs of a scalar = %v, want none", ps)
	}
}

func TestSyntaxErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    SyntaxError
		want string
	}{
		{SyntaxError{Line: 4, Message: "m"}, "line 4: m"},
		{SyntaxError{Message: "control characters are not allowed"}, "control characters are not allowed"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// FuzzDecode: any text decodes or fails with one of the documented errors,
// never panics, and a syntax error's line lies inside the text.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a: [1,\nb: 2\n", "a: 1\n---\nb: 2\n", "", "a: &x 1\nb: *x\n", "{a: 1, a: 2}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		root, err := Decode([]byte(text), Options{OneDocument: true, ParserLines: true})
		var syn *SyntaxError
		var extra *ExtraDocumentError
		switch {
		case err == nil:
			if root == nil {
				t.Fatal("no error and no root")
			}
			_ = Pairs(root)
		case errors.As(err, &syn):
			if syn.Line < 0 || syn.Line > len(text)+2 {
				t.Fatalf("line %d outside a %d-byte text", syn.Line, len(text))
			}
		case errors.As(err, &extra), errors.Is(err, ErrEmpty):
		default:
			t.Fatalf("undocumented error %T %v", err, err)
		}
	})
}
