package readfile

import (
	"fmt"
	"strconv"
)

// Kind is a kind of input file; each has its own size cap.
type Kind int

// The kinds of input file and their caps (docs/config.md, docs/evidence.md
// and each command's --help state them). A megabyte here is 1,048,576
// bytes.
const (
	// Config is a repository config file: 1 MB.
	Config Kind = iota
	// Certificate is a completion certificate: 10 MB.
	Certificate
	// Events is a gate events file: 50 MB.
	Events
	// Review is an audit review body or block: 1 MB.
	Review
	// Manifest is a release manifest: 10 MB.
	Manifest
	// RunDocument is a run document (plan, guide, log): 50 MB.
	RunDocument
	// Secret is a private key or webhook secret file: 1 MB.
	Secret
)

var kinds = [...]struct {
	name string
	mb   int64
}{
	Config:      {"a config file", 1},
	Certificate: {"a certificate", 10},
	Events:      {"a gate events file", 50},
	Review:      {"an audit review", 1},
	Manifest:    {"a release manifest", 10},
	RunDocument: {"a run document", 50},
	Secret:      {"a key or secret file", 1},
}

// Max is the most bytes a file of kind k may hold.
func (k Kind) Max() int64 { return kinds[k].mb << 20 }

// String names the kind for messages ("a config file").
func (k Kind) String() string { return kinds[k].name }

// limit is the cap as messages show it ("1 MB").
func (k Kind) limit() string { return fmt.Sprintf("%d MB", kinds[k].mb) }

// Quote returns path as messages show it: unchanged when every character
// prints as itself, Go-quoted otherwise (a newline becomes \n), so a file
// or folder name cannot forge a line of output.
func Quote(path string) string {
	q := strconv.Quote(path)
	if q[1:len(q)-1] == path {
		return path
	}
	return q
}
