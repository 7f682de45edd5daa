package ghfake

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteGit writes the repository's git objects into the bare repository at
// dir (created when absent), each as a loose object under the SHA the
// fake's API reports, with a ref refs/ghfake/<sha> naming every commit so
// that git serves any of them: a "file://"+dir remote for code under test
// that fetches with git. Objects already there are left alone, so calling
// it again adds what the fake made since.
func (r *Repo) WriteGit(dir string) error {
	objs, commits := r.gitObjects()
	for _, d := range []string{"objects", "refs/heads", "refs/tags", "refs/ghfake"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return fmt.Errorf("ghfake: WriteGit: %w", err)
		}
	}
	if err := writeNew(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/main\n")); err != nil {
		return err
	}
	if err := writeNew(filepath.Join(dir, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tbare = true\n")); err != nil {
		return err
	}
	for sha, raw := range objs {
		if err := writeObject(dir, sha, raw); err != nil {
			return err
		}
	}
	for _, sha := range commits {
		if err := writeNew(filepath.Join(dir, "refs", "ghfake", sha), []byte(sha+"\n")); err != nil {
			return err
		}
	}
	return nil
}

// gitObjects are the repository's objects as git stores them ("kind len\0"
// then the body), by SHA, and its commits' SHAs.
func (r *Repo) gitObjects() (map[string][]byte, []string) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	g := r.s.git
	out := map[string][]byte{}
	put := func(sha, kind string, body []byte) {
		out[sha] = append([]byte(fmt.Sprintf("%s %d\x00", kind, len(body))), body...)
	}
	for sha, b := range g.blobs {
		put(sha, "blob", b)
	}
	for sha, entries := range g.trees {
		var buf bytes.Buffer
		for _, e := range entries {
			raw, _ := hex.DecodeString(e.sha)
			fmt.Fprintf(&buf, "%s %s\x00", e.mode, e.name)
			buf.Write(raw)
		}
		put(sha, "tree", buf.Bytes())
	}
	var commits []string
	for sha, c := range g.commits {
		put(sha, "commit", c.text())
		commits = append(commits, sha)
	}
	for sha, t := range g.tags {
		put(sha, "tag", []byte(fmt.Sprintf("object %s\ntype %s\ntag %s\ntagger %s\n\n%s", t.object, t.objType, t.name, t.tagger.git(), t.message)))
	}
	return out, commits
}

// writeObject writes one loose object (zlib-compressed) unless present.
func writeObject(dir, sha string, raw []byte) error {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	if _, err := w.Write(raw); err != nil {
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	p := filepath.Join(dir, "objects", sha[:2], sha[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	return writeNew(p, z.Bytes())
}

// writeNew writes data to p unless p exists (through a temporary file, so
// a reader never sees half an object).
func writeNew(p string, data []byte) error {
	if _, err := os.Stat(p); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("ghfake: WriteGit: %w", err)
	}
	return nil
}
