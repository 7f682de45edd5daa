package owners

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
)

// files is a FileReader over fixed files at one commit, counting reads.
type files struct {
	at    map[string]string
	err   error
	reads int
}

func (f *files) ReadFiles(_ context.Context, _, _, _ string, paths []string) ([]gh.BlobFile, error) {
	f.reads++
	if f.err != nil {
		return nil, f.err
	}
	out := make([]gh.BlobFile, len(paths))
	for i, p := range paths {
		text, ok := f.at[p]
		out[i] = gh.BlobFile{Path: p, Content: []byte(text), Missing: !ok}
	}
	return out, nil
}

// TestCodeOwners: the first CODEOWNERS location found gives the owners, in
// one read; a config that lists its owners reads nothing; a missing file
// is Unusable, a refused line config.Errors, a failed read an error.
func TestCodeOwners(t *testing.T) {
	from := &config.Config{OwnersFrom: config.OwnersFromCodeOwners}
	tests := []struct {
		name      string
		cfg       *config.Config
		at        map[string]string
		readErr   error
		wantOwner []string
		wantReads int
		wantErr   string
	}{
		{"listed owners read nothing", &config.Config{Owners: []string{"olivia"}}, nil, nil, []string{"olivia"}, 0, ""},
		{".github first", from, map[string]string{".github/CODEOWNERS": "* @olivia\n", "CODEOWNERS": "* @mallory\n"}, nil, []string{"olivia"}, 1, ""},
		{"docs last", from, map[string]string{"docs/CODEOWNERS": "* @dana\n"}, nil, []string{"dana"}, 1, ""},
		{"none", from, nil, nil, nil, 1, "unusable"},
		{"refused line", from, map[string]string{"CODEOWNERS": "!x @olivia\n"}, nil, nil, 1, "errors"},
		{"read fails", from, nil, errors.New("boom"), nil, 1, "read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &files{at: tt.at, err: tt.readErr}
			got, err := codeOwners(context.Background(), r, "acme", "w", "abc", tt.cfg)
			var probs config.Errors
			var unusable *Unusable
			kind := ""
			switch {
			case errors.As(err, &probs):
				kind = "errors"
			case errors.As(err, &unusable):
				kind = "unusable"
			case err != nil:
				kind = "read"
			}
			if kind != tt.wantErr || r.reads != tt.wantReads {
				t.Fatalf("Resolve: error %v (%s), %d reads; want %q, %d reads", err, kind, r.reads, tt.wantErr, tt.wantReads)
			}
			if err == nil {
				if diff := cmp.Diff(tt.wantOwner, got.Owners); diff != "" {
					t.Errorf("owners (-want +got):\n%s", diff)
				}
			}
		})
	}
}
