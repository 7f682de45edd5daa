package releaserules

import "github.com/aepgate/aepgate/protocol/refusal"

// Object is a release as GitHub reports it (only the fields closure reads).
type Object struct {
	ID              int64   `json:"id"`
	TagName         string  `json:"tagName"`
	Draft           bool    `json:"draft"`
	Prerelease      bool    `json:"prerelease"`
	PublishedAt     string  `json:"publishedAt"`
	TargetCommitish string  `json:"targetCommitish"`
	Body            string  `json:"body"`
	Assets          []Asset `json:"assets"`
}

// Asset is a release asset: its name and, when GitHub reports one, its
// digest ("sha256:<hex>").
type Asset struct {
	Name   string `json:"name"`
	Digest string `json:"digest"`
}

// File is a file read at the tag through the Contents API; Found is false
// when it is absent, not a file, or not strict base64.
type File struct {
	Found   bool
	Content []byte
}

// Download is the lowercase hex SHA-256 of a release asset's downloaded
// bytes; OK is false when it could not be fetched.
type Download struct {
	OK     bool
	Sha256 string
}

// Snapshot is what GitHub holds for one release, gathered read-only by
// internal/gh. Empty strings and nil pointers mean "could not be read".
type Snapshot struct {
	Repository    string
	Tag           string
	DefaultBranch string
	// MainSha is the default branch head.
	MainSha string
	// TagObjectType is the ref's object type ("tag" for an annotated tag,
	// "commit" for a lightweight one) and TagObjectSha its SHA.
	TagObjectType string
	TagObjectSha  string
	// PeeledType and PeeledSha are the annotated tag's target.
	PeeledType string
	PeeledSha  string
	Release    *Object
	Latest     *Object
	// ManifestPath is the manifest's path in the repository; LocalManifest
	// is the working directory's copy (nil when missing).
	ManifestPath  string
	LocalManifest []byte
	// Files holds the files read at the tag, by path.
	Files map[string]File
	// AssetNames are the assets to verify; Downloads their hashes by name.
	AssetNames []string
	Downloads  map[string]Download
}

// Result is the closure verdict in craft's output shape.
type Result struct {
	Closed        bool              `json:"closed"`
	Version       string            `json:"version"`
	Tag           string            `json:"tag"`
	Repository    string            `json:"repository"`
	RemoteMainSha *string           `json:"remoteMainSha"`
	TagSha        *string           `json:"tagSha"`
	Errors        []string          `json:"errors"`
	Refusals      []refusal.Refusal `json:"-"`
	// Notes are what went wrong reading GitHub (for people; never a token).
	Notes []string `json:"-"`
	// Unreachable says a read failed because GitHub or the network did not
	// answer: the refusals it caused may go away on a retry (the CLI exits
	// 3 instead of 1).
	Unreachable bool `json:"-"`
}
