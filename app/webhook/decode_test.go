package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// richView reads what the App's views read: nested objects, arrays of
// objects, whole values (raw JSON, times, lists of strings), an embedded
// struct and a name matched case-insensitively.
type richView struct {
	embedded
	Action string `json:"action"`
	PR     *struct {
		Number int `json:"number"`
		Head   struct {
			SHA string `json:"sha"`
		} `json:"head"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
		Raw *json.RawMessage `json:"pull_request"`
	} `json:"pull_request"`
	Commits []struct {
		Added *[]string `json:"added"`
	} `json:"commits"`
	At time.Time `json:"created_at"`
}

type embedded struct {
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
}

// TestDecodeOnce: one pass keeps exactly the members the views read, with
// their names and values as sent, collects the top-level keys, and
// refuses what is not one JSON object within the depth limit.
func TestDecodeOnce(t *testing.T) {
	deep := strings.Repeat(`[`, 6) + strings.Repeat(`]`, 6)
	tests := []struct {
		name, body string
		want       string
		keys       []string
		err        error
	}{
		{"kept and dropped", `{"action":"opened","pull_request":{"number":4,"title":"x","head":{"sha":"a","ref":"b"}},"pad":[1,2]}`,
			`{"action":"opened","pull_request":{"number":4,"head":{"sha":"a"}}}`, []string{"action", "pull_request", "pad"}, nil},
		{"arrays of objects", `{"commits":[{"id":1,"added":["a","b"]},{"added":null}],"pull_request":{"labels":[{"name":"x","color":"y"}]}}`,
			`{"commits":[{"added":["a","b"]},{"added":null}],"pull_request":{"labels":[{"name":"x"}]}}`, []string{"commits", "pull_request"}, nil},
		{"whole values", `{"pull_request":{"pull_request":{"url":"u","n":[1]}},"created_at":"2024-01-01T00:00:00Z"}`,
			`{"pull_request":{"pull_request":{"url":"u","n":[1]}},"created_at":"2024-01-01T00:00:00Z"}`, []string{"pull_request", "created_at"}, nil},
		{"names as encoding/json matches them", `{"ACTION":"a","Sender":{"LOGIN":"l"},"act\u0069on":"b","action":"c"}`,
			`{"ACTION":"a","Sender":{"LOGIN":"l"},"act\u0069on":"b","action":"c"}`, []string{"ACTION", "Sender", "action", "action"}, nil},
		{"a scalar where an object is read", `{"pull_request":7}`, `{"pull_request":7}`, []string{"pull_request"}, nil},
		{"whitespace", " {\n \"action\" : \"x\" ,\t\"pad\" : { } }\n", `{"action":"x"}`, []string{"action", "pad"}, nil},
		{"deep in a dropped member", `{"pad":` + deep + `}`, "", nil, errTooDeep},
		{"deep in a kept member", `{"pull_request":{"pull_request":` + deep + `}}`, "", nil, errTooDeep},
		{"at the limit", `{"pad":[[[[]]]]}`, `{}`, []string{"pad"}, nil},
		{"not an object", `[1]`, "", nil, errNotObject},
		{"trailing value", `{} {}`, "", nil, errNotObject},
		{"truncated", `{"action":"x"`, "", nil, errNotObject},
		{"bad literal", `{"pad":tru}`, "", nil, errNotObject},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, keys, err := decodeOnce([]byte(tt.body), fieldsOf(new(richView)), 5)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if string(kept) != tt.want {
				t.Errorf("kept %s, want %s", kept, tt.want)
			}
			if diff := cmp.Diff(tt.keys, keys); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDecodeOnce: the pass accepts a body exactly when encoding/json
// finds it one valid JSON object within the depth limit, and a view
// decodes from what it kept what it decodes from the whole body.
func FuzzDecodeOnce(f *testing.F) {
	f.Add([]byte(`{"action":"opened","pull_request":{"number":4,"head":{"sha":"a"},"labels":[{"name":"x"}]},"sender":{"login":"o"}}`))
	f.Add([]byte(`{"Pull_Request":{"NUMBER":1},"pull_request":{"number":2},"commits":[{"added":["a"]},{"added":{}}]}`))
	f.Add([]byte(`{"created_at":"2024-01-01T00:00:00Z","pull_request":{"pull_request":{"a":[{"b":"\ud800"}]}}}`))
	f.Add([]byte("{\"act\xffion\":\"x\",\"\\u0041ction\":1}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		const limit = 8
		kept, _, err := decodeOnce(body, fieldsOf(new(richView)), limit)
		object := json.Valid(body) && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{"))
		if want := object && depthOf(body) <= limit; (err == nil) != want {
			t.Fatalf("decode %q: error %v; want ok %v (object %v, depth %d)", body, err, want, object, depthOf(body))
		}
		if err != nil {
			return
		}
		var fromBody, fromKept richView
		errBody, errKept := json.Unmarshal(body, &fromBody), json.Unmarshal(kept, &fromKept)
		if (errBody == nil) != (errKept == nil) {
			t.Fatalf("decode %q: error %v from the body, %v from kept %s", body, errBody, errKept, kept)
		}
		if diff := cmp.Diff(fromBody, fromKept, cmp.AllowUnexported(richView{})); errBody == nil && diff != "" {
			t.Fatalf("view of %q (-body +kept %s):\n%s", body, kept, diff)
		}
	})
}
