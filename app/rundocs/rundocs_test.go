package rundocs

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// files is a fake Files: each commit's blobs by path, or an error.
type files struct {
	at  map[string]map[string]gh.BlobFile
	err error
}

func (f files) ReadFiles(_ context.Context, _, _, sha string, paths []string) ([]gh.BlobFile, error) {
	if f.err != nil {
		return nil, f.err
	}
	out := make([]gh.BlobFile, len(paths))
	for i, p := range paths {
		b, ok := f.at[sha][p]
		if !ok {
			b = gh.BlobFile{Missing: true}
		}
		b.Path = p
		out[i] = b
	}
	return out, nil
}

// TestRead: the changed guides are read at base and head; a guide
// without whole text, or an unknown base, is recorded with why (the
// gates then judge it changed); a failed read fails the evaluation.
func TestRead(t *testing.T) {
	const guide = "docs/run/execution-guide.md"
	cfg, err := config.Parse(config.DefaultPath, []byte("version: 1\nrun_documents: [docs/run]\n"))
	if err != nil {
		t.Fatal(err)
	}
	blob := func(s string) gh.BlobFile { return gh.BlobFile{Content: []byte(s)} }
	for _, tt := range []struct {
		name    string
		base    string
		f       files
		want    map[string]verdict.GuideTexts
		wantErr bool
	}{
		{"both read", "b", files{at: map[string]map[string]gh.BlobFile{"b": {guide: blob("old")}, "h": {guide: blob("new")}}},
			map[string]verdict.GuideTexts{guide: {Base: "old", Head: "new"}}, false},
		{"new at the head", "b", files{at: map[string]map[string]gh.BlobFile{"h": {guide: blob("new")}}},
			map[string]verdict.GuideTexts{guide: {Head: "new"}}, false},
		{"cut short at the base", "b", files{at: map[string]map[string]gh.BlobFile{"b": {guide: {TooLarge: true}}, "h": {guide: blob("new")}}},
			map[string]verdict.GuideTexts{guide: {Head: "new", Err: "GitHub gave no whole text of " + guide}}, false},
		{"no base named", "", files{}, map[string]verdict.GuideTexts{guide: {Err: "GitHub named no base commit"}}, false},
		{"a failed read", "b", files{err: errors.New("502")}, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := &verdict.Evaluation{Cfg: cfg, Snap: &snapshot.PR{Has: snapshot.Needs{Files: true},
				Pull: &snapshot.Pull{BaseSHA: tt.base, HeadSHA: "h", Files: []snapshot.File{{Path: guide}, {Path: "x.go"}}}}}
			err := Read(context.Background(), tt.f, "acme", "widgets", ev)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Read = %v, want an error: %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, ev.Guides); !tt.wantErr && diff != "" {
				t.Errorf("Guides (-want +got):\n%s", diff)
			}
		})
	}
}
