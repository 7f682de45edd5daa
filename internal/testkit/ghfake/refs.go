package ghfake

import "fmt"

// Branch creates branch at the commit ref resolves to.
func (r *Repo) Branch(branch, from string) string {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	sha := r.s.resolve(from)
	if sha == "" {
		panic(fmt.Sprintf("ghfake: Branch(%q, %q): unknown ref", branch, from))
	}
	before := r.s.refs["refs/heads/"+branch]
	r.f.setRef(r.s, "refs/heads/"+branch, sha)
	r.f.pushed(r.s, "refs/heads/"+branch, before, sha, r.s.owner)
	return sha
}

// Head returns the SHA branch points at ("" if none).
func (r *Repo) Head(branch string) string {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	return r.s.refs["refs/heads/"+branch]
}

// Tag creates an annotated tag name on the commit ref resolves to, tagged
// by the repository owner; it returns the tag object's SHA.
func (r *Repo) Tag(name, ref, message string) string {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	target := r.s.resolve(ref)
	if target == "" {
		panic(fmt.Sprintf("ghfake: Tag(%q, %q): unknown ref", name, ref))
	}
	sha := r.s.git.putTag(&tagObj{
		name: name, object: target, objType: "commit", tagger: r.f.signature(r.s.owner), message: message,
	})
	r.f.setRef(r.s, "refs/tags/"+name, sha)
	r.f.pushed(r.s, "refs/tags/"+name, "", sha, r.s.owner)
	return sha
}

// LightweightTag points refs/tags/name straight at the commit ref resolves to.
func (r *Repo) LightweightTag(name, ref string) string {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	target := r.s.resolve(ref)
	if target == "" {
		panic(fmt.Sprintf("ghfake: LightweightTag(%q, %q): unknown ref", name, ref))
	}
	r.f.setRef(r.s, "refs/tags/"+name, target)
	return target
}
