package gh_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestListPullFilesPages(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("octo/demo")
	repo.Commit("main", "init", map[string]string{"README.md": "# demo\n"})
	repo.Branch("work", "main")
	files := map[string]string{}
	for i := range 230 {
		files[fmt.Sprintf("gen/f%03d.go", i)] = "package gen\n"
	}
	repo.Commit("work", "generate", files)
	pr := repo.OpenPR("octo", "work", "main", "generate", "")
	tests := []struct {
		name    string
		perms   ghfake.Permissions
		want    int
		wantErr string
	}{
		{"every page", ghfake.Permissions{"pull_requests": "read"}, 230, ""},
		{"no pull-requests permission", ghfake.Permissions{"contents": "read"}, 0, "the token needs pull-requests: read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := gh.NewTokenClient(f.URL(), f.ActionsToken(repo, tt.perms), f.HTTPClient())
			if err != nil {
				t.Fatal(err)
			}
			paths, complete, err := gh.ListPullFiles(context.Background(), c, "octo", "demo", pr.Number())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !complete || len(paths) != tt.want || !strings.HasPrefix(strings.Join(paths, ","), "gen/f000.go,") {
				t.Errorf("got %d paths, complete %v, err %v; want %d from gen/f000.go, complete", len(paths), complete, err, tt.want)
			}
		})
	}
}
