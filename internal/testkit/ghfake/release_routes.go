package ghfake

import (
	"io"
	"net/http"
	"strconv"
	"strings"
)

func (f *Fake) releaseRoutes() {
	f.handle("GET /repos/{owner}/{repo}/releases", read("contents"), func(c *call) (int, any) {
		out := []any{}
		for i := len(c.repo.releases) - 1; i >= 0; i-- { // newest first
			if r := c.repo.releases[i]; !r.draft || c.pushAccess() {
				out = append(out, c.f.releaseJSON(c.repo, r))
			}
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET /repos/{owner}/{repo}/releases/latest", read("contents"), func(c *call) (int, any) {
		if r := c.repo.latestRelease(); r != nil {
			return http.StatusOK, c.f.releaseJSON(c.repo, r)
		}
		return notFound()
	})
	f.handle("GET /repos/{owner}/{repo}/releases/{release_id}", read("contents"), func(c *call) (int, any) {
		if r := c.releaseParam(); r != nil {
			return http.StatusOK, c.f.releaseJSON(c.repo, r)
		}
		return notFound()
	})
	f.handle("POST /repos/{owner}/{repo}/releases", write("contents"), createRelease)
	f.handle("PATCH /repos/{owner}/{repo}/releases/{release_id}", write("contents"), editRelease)
	f.handle("DELETE /repos/{owner}/{repo}/releases/{release_id}", write("contents"), func(c *call) (int, any) {
		r := c.releaseParam()
		if r == nil {
			return notFound()
		}
		c.f.emitRelease(c.repo, r, "deleted") // while its assets still exist
		for i, x := range c.repo.releases {
			if x == r {
				c.repo.releases = append(c.repo.releases[:i], c.repo.releases[i+1:]...)
				break
			}
		}
		for _, id := range r.assets {
			delete(c.repo.assets, id)
		}
		return http.StatusNoContent, nil
	})
	f.handle("GET /repos/{owner}/{repo}/releases/tags/{tag}", read("contents"), releaseByTag)
	f.handle("GET /repos/{owner}/{repo}/releases/{release_id}/assets", read("contents"), listAssets)
	f.handle("POST /repos/{owner}/{repo}/releases/{release_id}/assets", write("contents"), uploadAsset)
	f.handle("GET /repos/{owner}/{repo}/releases/assets/{asset_id}", read("contents"), getAsset)
	f.handle("PATCH /repos/{owner}/{repo}/releases/assets/{asset_id}", write("contents"), func(c *call) (int, any) {
		a := c.assetParam()
		if a == nil {
			return notFound()
		}
		var req struct {
			Name  *string `json:"name"`
			Label *string `json:"label"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		if req.Name != nil {
			a.name = *req.Name
		}
		if req.Label != nil {
			a.label = *req.Label
		}
		return http.StatusOK, c.f.assetJSON(c.repo, a)
	})
	f.handle("DELETE /repos/{owner}/{repo}/releases/assets/{asset_id}", write("contents"), func(c *call) (int, any) {
		a := c.assetParam()
		if a == nil {
			return notFound()
		}
		rel := c.repo.release(a.release)
		for i, id := range rel.assets {
			if id == a.id {
				rel.assets = append(rel.assets[:i], rel.assets[i+1:]...)
				break
			}
		}
		delete(c.repo.assets, a.id)
		return http.StatusNoContent, nil
	})
	f.handle("GET /_ghfake/download/{owner}/{repo}/{asset_id}/{name}", access{scope: scopePublic}, download)
	f.handle("GET /_ghfake/raw/{owner}/{repo}/{rest...}", access{scope: scopePublic}, rawFile)
}

// pushAccess reports whether the caller may see drafts (push access).
func (c *call) pushAccess() bool {
	return c.tok == nil || c.tok.perms.allows(write("contents")) ||
		(c.tok.kind == userToken && level(userLevel(c.repo.perms[strings.ToLower(c.tok.user.login)])) >= 2)
}

func (c *call) releaseParam() *release {
	id, _ := strconv.ParseInt(c.r.PathValue("release_id"), 10, 64)
	r := c.repo.release(id)
	if r == nil || (r.draft && !c.pushAccess()) {
		return nil
	}
	return r
}

func (c *call) assetParam() *asset {
	id, _ := strconv.ParseInt(c.r.PathValue("asset_id"), 10, 64)
	return c.repo.assets[id]
}

type releaseReq struct {
	TagName    *string `json:"tag_name"`
	Target     *string `json:"target_commitish"`
	Name       *string `json:"name"`
	Body       *string `json:"body"`
	Draft      *bool   `json:"draft"`
	Prerelease *bool   `json:"prerelease"`
	MakeLatest *string `json:"make_latest"`
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func createRelease(c *call) (int, any) {
	var req releaseReq
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if c.repo.releaseByTag(deref(req.TagName)) != nil {
		return invalid("Release", "tag_name", "already_exists", "")
	}
	rel, err := c.f.newRelease(c.repo, c.f.actor(c.tok), deref(req.TagName), ReleaseOptions{
		Name: deref(req.Name), Body: deref(req.Body), Target: deref(req.Target),
		Draft: deref(req.Draft), Prerelease: deref(req.Prerelease),
	})
	if err != nil {
		return invalid("Release", "tag_name", "invalid", err.Error())
	}
	c.markLatest(rel, req.MakeLatest)
	c.f.emitRelease(c.repo, rel, "created")
	if !rel.draft {
		c.f.emitPublished(c.repo, rel)
	}
	return http.StatusCreated, c.f.releaseJSON(c.repo, rel)
}

func (c *call) markLatest(rel *release, makeLatest *string) {
	if deref(makeLatest) != "true" {
		return
	}
	for _, r := range c.repo.releases {
		r.latest = false
	}
	rel.latest = true
}

func editRelease(c *call) (int, any) {
	rel := c.releaseParam()
	if rel == nil {
		return notFound()
	}
	var req releaseReq
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if req.TagName != nil && *req.TagName != rel.tag {
		if c.repo.releaseByTag(*req.TagName) != nil {
			return invalid("Release", "tag_name", "already_exists", "")
		}
		rel.tag = *req.TagName
	}
	set(&rel.target, req.Target)
	set(&rel.name, req.Name)
	set(&rel.body, req.Body)
	set(&rel.prerelease, req.Prerelease)
	wasDraft := rel.draft
	set(&rel.draft, req.Draft)
	c.markLatest(rel, req.MakeLatest)
	if wasDraft && !rel.draft {
		rel.published = c.f.clock()
		c.f.ensureTag(c.repo, rel)
		c.f.emitPublished(c.repo, rel)
	} else {
		c.f.emitRelease(c.repo, rel, "edited")
	}
	return http.StatusOK, c.f.releaseJSON(c.repo, rel)
}

func set[T any](dst *T, p *T) {
	if p != nil {
		*dst = *p
	}
}

// uploadAsset serves the upload endpoint: the raw body is the asset.
func uploadAsset(c *call) (int, any) {
	rel := c.releaseParam()
	if rel == nil {
		return notFound()
	}
	name := c.r.URL.Query().Get("name")
	if name == "" {
		return invalid("ReleaseAsset", "name", "missing", "name is required")
	}
	for _, id := range rel.assets {
		if c.repo.assets[id].name == name {
			return invalid("ReleaseAsset", "name", "already_exists", "")
		}
	}
	data, err := io.ReadAll(io.LimitReader(c.r.Body, 2<<30))
	if err != nil {
		return badJSON(err)
	}
	ctype := c.r.Header.Get("Content-Type")
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	a := c.f.addAsset(c.repo, rel, c.f.actor(c.tok), name, c.r.URL.Query().Get("label"), ctype, data)
	return http.StatusCreated, c.f.assetJSON(c.repo, a)
}

// getAsset answers JSON, or with Accept: application/octet-stream a 302 to
// the download URL, as GitHub does.
func getAsset(c *call) (int, any) {
	a := c.assetParam()
	if a == nil {
		return notFound()
	}
	if strings.Contains(c.r.Header.Get("Accept"), "application/octet-stream") {
		http.Redirect(c.w, c.r, c.f.downloadURL(c.repo, a), http.StatusFound)
		return 0, nil
	}
	return http.StatusOK, c.f.assetJSON(c.repo, a)
}

func download(c *call) (int, any) {
	s := c.f.repo(c.r.PathValue("owner") + "/" + c.r.PathValue("repo"))
	if s == nil {
		return notFound()
	}
	id, _ := strconv.ParseInt(c.r.PathValue("asset_id"), 10, 64)
	a := s.assets[id]
	if a == nil || a.name != c.r.PathValue("name") {
		return notFound()
	}
	a.downloads++
	c.w.Header().Set("Content-Type", a.contentType)
	c.w.Header().Set("Content-Length", strconv.Itoa(len(a.data)))
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(a.data)
	return 0, nil
}

// rawFile serves a file's bytes at a ref (download_url of the Contents API);
// the ref may itself contain slashes.
func rawFile(c *call) (int, any) {
	s := c.f.repo(c.r.PathValue("owner") + "/" + c.r.PathValue("repo"))
	if s == nil {
		return notFound()
	}
	parts := strings.Split(c.r.PathValue("rest"), "/")
	for i := 1; i < len(parts); i++ {
		sha := s.resolve(strings.Join(parts[:i], "/"))
		if sha == "" {
			continue
		}
		if blob, ok := s.git.commits[sha].files[strings.Join(parts[i:], "/")]; ok {
			c.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = c.w.Write(s.git.blobs[blob])
			return 0, nil
		}
	}
	return notFound()
}

func releaseByTag(c *call) (int, any) {
	if r := c.repo.releaseByTag(c.r.PathValue("tag")); r != nil && !r.draft {
		return http.StatusOK, c.f.releaseJSON(c.repo, r)
	}
	return notFound()
}

func listAssets(c *call) (int, any) {
	r := c.releaseParam()
	if r == nil {
		return notFound()
	}
	out := []any{}
	for _, id := range r.assets {
		out = append(out, c.f.assetJSON(c.repo, c.repo.assets[id]))
	}
	return http.StatusOK, c.page(out)
}
