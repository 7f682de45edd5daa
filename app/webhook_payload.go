package app

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// storedPayload is what a delivery's job keeps of a verified body: the
// fields of the views its event's family decodes (families.views), merged
// into one JSON object, so the job decodes from it exactly what it would
// from the whole body, and a 25 MB push payload is stored in a few
// kilobytes. A body whose fields do not have the types the views expect
// is an error.
func storedPayload(views []any, body []byte) (json.RawMessage, error) {
	merged := map[string]any{}
	for _, v := range views {
		if err := json.Unmarshal(body, v); err != nil {
			return nil, fmt.Errorf("decode payload: %w", err)
		}
		kept, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode payload: %w", err)
		}
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(kept))
		d.UseNumber() // IDs past 2^53 stay exact
		if err := d.Decode(&m); err != nil {
			return nil, fmt.Errorf("merge payload: %w", err)
		}
		mergeObjects(merged, m)
	}
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, fmt.Errorf("encode payload: %w", err)
	}
	return out, nil
}

// mergeObjects adds src's members to dst: an object merges into an
// object, a value replaces a null, and a value already there stays (both
// views decoded it from the same body).
func mergeObjects(dst, src map[string]any) {
	for k, v := range src {
		switch old := dst[k].(type) {
		case nil:
			dst[k] = v
		case map[string]any:
			if m, ok := v.(map[string]any); ok {
				mergeObjects(old, m)
			}
		}
	}
}
