package ghfake

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// release is one GitHub release.
type release struct {
	id         int64
	tag        string
	target     string // target_commitish
	name       string
	body       string
	draft      bool
	prerelease bool
	immutable  bool
	latest     bool // make_latest=true pinned it
	author     *user
	created    time.Time
	published  time.Time
	assets     []int64
}

// asset is one release asset with its real bytes.
type asset struct {
	id          int64
	release     int64
	name        string
	label       string
	contentType string
	data        []byte
	uploader    *user
	created     time.Time
	downloads   int
}

func (a *asset) digest() string {
	sum := sha256.Sum256(a.data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ReleaseOptions describes a release made through the scenario API.
type ReleaseOptions struct {
	Name       string
	Body       string
	Target     string // target_commitish; the default branch when empty
	Draft      bool
	Prerelease bool
	Immutable  bool
	Assets     map[string][]byte // name → bytes, uploaded in name order
}

// Release is the scenario handle of one release.
type Release struct {
	r  *Repo
	id int64
}

// ID is the release's database ID.
func (rl *Release) ID() int64 { return rl.id }

// PublishRelease publishes a release of tag (creating a lightweight tag at
// opts.Target if the tag does not exist, as GitHub does) with its assets.
func (r *Repo) PublishRelease(tag string, opts ReleaseOptions) *Release {
	opts.Draft = false
	return r.CreateRelease(tag, opts)
}

// CreateRelease creates a release (a draft if opts.Draft) of tag.
func (r *Repo) CreateRelease(tag string, opts ReleaseOptions) *Release {
	f := r.f
	f.mu.Lock()
	rel, err := f.newRelease(r.s, f.ensureUser(r.s.owner.login), tag, opts)
	if err != nil {
		f.mu.Unlock()
		panic("ghfake: CreateRelease: " + err.Error())
	}
	for _, name := range sortedKeys(opts.Assets) {
		f.addAsset(r.s, rel, r.s.owner, name, "", "application/octet-stream", opts.Assets[name])
	}
	f.emitRelease(r.s, rel, "created")
	if !rel.draft {
		f.emitPublished(r.s, rel)
	}
	f.mu.Unlock()
	f.flush()
	return &Release{r: r, id: rel.id}
}

// Publish turns a draft release into a published one.
func (rl *Release) Publish() {
	f := rl.r.f
	f.mu.Lock()
	s := rl.r.s
	rel := s.release(rl.id)
	if rel.draft {
		rel.draft = false
		rel.published = f.clock()
		f.ensureTag(s, rel)
		f.emitPublished(s, rel)
	}
	f.mu.Unlock()
	f.flush()
}

// UploadAsset attaches name with data to the release and returns the
// asset's ID.
func (rl *Release) UploadAsset(name string, data []byte) int64 {
	f := rl.r.f
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.addAsset(rl.r.s, rl.r.s.release(rl.id), rl.r.s.owner, name, "", "application/octet-stream", data)
	return a.id
}

// ReplaceAssetBytes swaps an asset's bytes in place (what a tampered or
// re-uploaded asset looks like), so digest checks can be shown failing.
func (rl *Release) ReplaceAssetBytes(name string, data []byte) {
	f := rl.r.f
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range rl.r.s.release(rl.id).assets {
		if a := rl.r.s.assets[id]; a.name == name {
			a.data = append([]byte(nil), data...)
			return
		}
	}
	panic(fmt.Sprintf("ghfake: ReplaceAssetBytes: no asset %q", name))
}

func (s *repoState) release(id int64) *release {
	for _, r := range s.releases {
		if r.id == id {
			return r
		}
	}
	return nil
}

func (s *repoState) releaseByTag(tag string) *release {
	for _, r := range s.releases {
		if r.tag == tag {
			return r
		}
	}
	return nil
}

// newRelease validates and stores a release; callers hold mu.
func (f *Fake) newRelease(s *repoState, by *user, tag string, o ReleaseOptions) (*release, error) {
	if tag == "" {
		return nil, fmt.Errorf("tag_name is required")
	}
	if s.releaseByTag(tag) != nil {
		return nil, fmt.Errorf("tag_name %q already has a release", tag)
	}
	target := o.Target
	if target == "" {
		target = s.defaultBranch
	}
	if _, tagged := s.refs["refs/tags/"+tag]; !tagged && s.resolve(target) == "" {
		return nil, fmt.Errorf("target_commitish %q is invalid", target)
	}
	rel := &release{
		id: f.nextID(), tag: tag, target: target, name: o.Name, body: o.Body, draft: o.Draft,
		prerelease: o.Prerelease, immutable: o.Immutable, author: by, created: f.clock(),
	}
	if !rel.draft {
		rel.published = f.clock()
		f.ensureTag(s, rel)
	}
	s.releases = append(s.releases, rel)
	return rel, nil
}

// ensureTag creates the lightweight tag a published release needs.
func (f *Fake) ensureTag(s *repoState, rel *release) {
	if _, ok := s.refs["refs/tags/"+rel.tag]; ok {
		return
	}
	f.setRef(s, "refs/tags/"+rel.tag, s.resolve(rel.target))
}

func (f *Fake) addAsset(s *repoState, rel *release, by *user, name, label, ctype string, data []byte) *asset {
	a := &asset{
		id: f.nextID(), release: rel.id, name: name, label: label, contentType: ctype,
		data: append([]byte(nil), data...), uploader: by, created: f.clock(),
	}
	s.assets[a.id] = a
	rel.assets = append(rel.assets, a.id)
	return a
}

// latestRelease is the release marked latest, else the newest published
// non-prerelease.
func (s *repoState) latestRelease() *release {
	var best *release
	for _, r := range s.releases {
		if r.draft || r.prerelease {
			continue
		}
		if r.latest {
			return r
		}
		if best == nil || !r.published.Before(best.published) {
			best = r
		}
	}
	return best
}

func (f *Fake) releaseJSON(s *repoState, r *release) obj {
	api := f.api(s) + "/releases/" + itoa(r.id)
	assets := []any{}
	for _, id := range r.assets {
		assets = append(assets, f.assetJSON(s, s.assets[id]))
	}
	var published any
	if !r.draft {
		published = ts(r.published)
	}
	return obj{
		"url": api, "assets_url": api + "/assets", "upload_url": f.root() + "/repos/" + s.fullName + "/releases/" + itoa(r.id) + "/assets{?name,label}",
		"html_url": "https://github.com/" + s.fullName + "/releases/tag/" + r.tag, "id": r.id, "node_id": nodeID("Release", r.id),
		"author": f.userJSON(r.author), "tag_name": r.tag, "target_commitish": r.target, "name": r.name,
		"draft": r.draft, "prerelease": r.prerelease, "immutable": r.immutable, "created_at": ts(r.created),
		"published_at": published, "assets": assets, "body": r.body,
		"tarball_url": f.api(s) + "/tarball/" + r.tag, "zipball_url": f.api(s) + "/zipball/" + r.tag,
	}
}

func (f *Fake) assetJSON(s *repoState, a *asset) obj {
	return obj{
		"url": f.api(s) + "/releases/assets/" + itoa(a.id), "id": a.id, "node_id": nodeID("ReleaseAsset", a.id),
		"name": a.name, "label": a.label, "uploader": f.userJSON(a.uploader), "content_type": a.contentType,
		"state": "uploaded", "size": len(a.data), "digest": a.digest(), "download_count": a.downloads,
		"created_at": ts(a.created), "updated_at": ts(a.created),
		"browser_download_url": f.downloadURL(s, a),
	}
}

// downloadURL is where the asset's bytes are served without authentication,
// as GitHub's redirect target is.
func (f *Fake) downloadURL(s *repoState, a *asset) string {
	return f.root() + "/_ghfake/download/" + s.fullName + "/" + itoa(a.id) + "/" + a.name
}
