package pull

import (
	"context"
	"sync"
)

// Roles keeps the live roles one job has read (gh.Installation.Role), so
// that a job judging many pull requests of a repository (Open: a project
// HOLD, a config change, a milestone edit) reads each person's permission
// once instead of once per pull request. It lives only as long as the job:
// the next job reads afresh, so a revoked permission is seen there. A
// failed read is never kept: the judgement that asked fails and the next
// one asks again. The zero value is ready; a nil *Roles keeps nothing.
type Roles struct {
	mu   sync.Mutex
	read map[roleKey]string
}

type roleKey struct{ owner, repo, login string }

// Role is login's role on owner/repo: the one this job read, else a read
// through r.
func (m *Roles) Role(ctx context.Context, r RoleReader, owner, repo, login string) (string, error) {
	if m == nil {
		return r.Role(ctx, owner, repo, login)
	}
	k := roleKey{owner, repo, login}
	m.mu.Lock()
	role, ok := m.read[k]
	m.mu.Unlock()
	if ok {
		return role, nil
	}
	role, err := r.Role(ctx, owner, repo, login)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.read == nil {
		m.read = map[roleKey]string{}
	}
	m.read[k] = role
	return role, nil
}
