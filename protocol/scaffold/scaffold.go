// Package scaffold holds aepgate's own templates for a new run: the plan of
// record, the execution guide, the compliance log and the annexes folder.
// It is pure: it returns file contents and leaves writing them to the caller.
package scaffold

import (
	"embed"
	"strings"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

//go:embed templates/*.md
var templates embed.FS

// nameToken is replaced by the project name in every template.
const nameToken = "{{PROJECT_NAME}}"

// File is one file of a new run, by slash-separated path relative to the
// run folder.
type File struct {
	Path    string
	Content []byte
}

// Documents are the three run documents in the order init writes them.
var Documents = []string{rundoc.PlanFile, rundoc.GuideFile, rundoc.LogFile}

// KeepPath is the placeholder file that keeps annexes/ in git.
const KeepPath = rundoc.AnnexDir + "/" + rundoc.KeepFile

// Render returns the three documents for a project called name, in
// Documents order.
func Render(name string) []File {
	out := make([]File, 0, len(Documents))
	for _, doc := range Documents {
		b, err := templates.ReadFile("templates/" + doc)
		if err != nil {
			// The templates are embedded at build time; a missing one is a
			// broken build, caught by the package tests.
			panic("scaffold: missing embedded template " + doc)
		}
		out = append(out, File{Path: doc, Content: []byte(strings.ReplaceAll(string(b), nameToken, name))})
	}
	return out
}
