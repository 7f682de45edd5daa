package pull

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// roleSource is a repository's live roles as GitHub answers them, with
// the reads it answered and a failure to give once.
type roleSource struct {
	roles map[string]string
	reads []string
	fail  error
}

func (s *roleSource) Role(_ context.Context, _, _, login string) (string, error) {
	s.reads = append(s.reads, login)
	if err := s.fail; err != nil {
		s.fail = nil
		return "", err
	}
	r, ok := s.roles[login]
	if !ok {
		return "none", nil
	}
	return r, nil
}

// TestRolesReadOncePerJob: one job's judgements share each person's live
// role (one read per person), a failed read is never kept (the next asks
// again), and the next job reads afresh, so a permission revoked between
// two jobs is seen. The negative control keeps one memo across both jobs
// (what a longer-lived memo would do): the revoked owner still counts.
func TestRolesReadOncePerJob(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// acrossJobs keeps the first job's memo for the second (the broken
		// variant).
		acrossJobs bool
		want       []string // olivia's role in each judgement of both jobs
		wantReads  []string
	}{
		{name: "per job", want: []string{"admin", "admin", "read"}, wantReads: []string{"olivia", "olivia", "olivia"}},
		{name: "negative control: one memo across jobs", acrossJobs: true, want: []string{"admin", "admin", "admin"}, wantReads: []string{"olivia", "olivia"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &roleSource{roles: map[string]string{"olivia": "admin"}, fail: errors.New("502 bad gateway")}
			job := &Roles{}
			if _, err := job.Role(ctx, src, "acme", "widgets", "olivia"); err == nil {
				t.Fatal("a failed read gave a role; want the error")
			}
			var got []string
			for range 2 { // two pull requests of one job
				r, err := job.Role(ctx, src, "acme", "widgets", "olivia")
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r)
			}
			src.roles["olivia"] = "read" // revoked between the jobs
			next := &Roles{}
			if tt.acrossJobs {
				next = job
			}
			r, err := next.Role(ctx, src, "acme", "widgets", "olivia")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("roles (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantReads, src.reads); diff != "" {
				t.Errorf("reads (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRolesNilReadsEachTime: without a job's memo every judgement reads.
func TestRolesNilReadsEachTime(t *testing.T) {
	src := &roleSource{roles: map[string]string{"olivia": "admin"}}
	var none *Roles
	for range 2 {
		if _, err := none.Role(context.Background(), src, "acme", "widgets", "olivia"); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := len(src.reads), 2; got != want {
		t.Errorf("reads = %d, want %d", got, want)
	}
}
