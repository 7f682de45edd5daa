package gh

import "sync"

// fileCache remembers files read at a commit. A path's content at a
// commit SHA never changes, so entries never go stale; the cache is bounded
// by bytes and forgets its oldest entries first.
type fileCache struct {
	mu    sync.Mutex
	max   int
	bytes int
	order []string
	files map[string]BlobFile
}

// maxCachedFileBytes bounds one installation's file cache.
const maxCachedFileBytes = 32 << 20

func fileKey(owner, repo, sha, path string) string {
	return owner + "/" + repo + "@" + sha + ":" + path
}

func (c *fileCache) get(key string) (BlobFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.files[key]
	return f, ok
}

func (c *fileCache) put(key string, f BlobFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files, c.max = map[string]BlobFile{}, maxCachedFileBytes
	}
	if _, ok := c.files[key]; ok || len(f.Content) > c.max {
		return
	}
	c.files[key] = f
	c.order = append(c.order, key)
	c.bytes += len(f.Content)
	for c.bytes > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.files[old].Content)
		delete(c.files, old)
	}
}
