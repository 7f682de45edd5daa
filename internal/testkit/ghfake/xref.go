package ghfake

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	gmast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// xref is a cross-reference held by its target: the issue or pull request
// num of src mentioned the target (GitHub's CrossReferencedEvent, REST's
// cross-referenced timeline event).
type xref struct {
	src   *repoState
	num   int
	actor *user     // who wrote the first mention
	at    time.Time // when
	seq   int64     // the last ID issued then: orders it among comments
}

// mention records the cross-references text makes: text is the body of
// src (an issue or pull request of s), or of a comment or review on it,
// written by by. As on GitHub there is one per source and target (the
// first mention's actor and time), an issue mentioning itself makes none,
// and taking a mention out again removes nothing. Callers hold mu.
func (f *Fake) mention(s *repoState, src *issue, by *user, body string) {
	for _, ref := range references(body) {
		ts := s
		if ref.repo != "" {
			ts = f.repo(ref.repo)
		}
		if ts == nil {
			continue
		}
		target := ts.issue(ref.number)
		if target == nil || target == src || target.xrefFrom(s, src.number) != nil {
			continue
		}
		target.xrefs = append(target.xrefs, &xref{src: s, num: src.number, actor: by, at: f.clock(), seq: f.lastID})
	}
}

func (i *issue) xrefFrom(s *repoState, num int) *xref {
	for _, x := range i.xrefs {
		if x.src == s && x.num == num {
			return x
		}
	}
	return nil
}

// source is the issue or pull request that made the reference.
func (x *xref) source() *issue { return x.src.issue(x.num) }

// willClose reports GitHub's willCloseTarget: the source is a pull request
// into its repository's default branch whose body names target (an issue
// of the same repository) with a closing keyword — what merge acts on.
func (x *xref) willClose(ts *repoState, target *issue) bool {
	src := x.source()
	if x.src != ts || src.pr == nil || target.pr != nil || src.pr.baseRef != ts.defaultBranch {
		return false
	}
	for _, n := range closingRefs(src.body) {
		if n == target.number {
			return true
		}
	}
	return false
}

// issueRef is one reference: repo ("owner/name", "" for the same
// repository) and number.
type issueRef struct {
	repo   string
	number int
}

// GitHub's reference forms: #N, GH-N, owner/name#N and issue or pull
// request URLs, each not glued to a preceding word.
var (
	shortRefRE = regexp.MustCompile(`(?:^|[^\w/#&])(?:#|(?i:gh-))(\d+)\b`)
	fullRefRE  = regexp.MustCompile(`(?:^|[^\w/.-])([A-Za-z0-9][\w-]*/[\w.-]+)#(\d+)\b`)
	urlRefRE   = regexp.MustCompile(`https?://github\.com/([\w-]+/[\w.-]+)/(?:issues|pull)/(\d+)\b`)
)

// references lists the issue references of a Markdown body, skipping code
// spans, code blocks, HTML and link text, as GitHub's reference filter does
// (a link's destination still counts).
func references(body string) []issueRef {
	plain := mentionText(body)
	var out []issueRef
	for _, m := range shortRefRE.FindAllStringSubmatch(plain, -1) {
		out = appendRef(out, "", m[1])
	}
	for _, re := range []*regexp.Regexp{fullRefRE, urlRefRE} {
		for _, m := range re.FindAllStringSubmatch(plain, -1) {
			out = appendRef(out, m[1], m[2])
		}
	}
	return out
}

func appendRef(out []issueRef, repo, num string) []issueRef {
	if n, err := strconv.Atoi(num); err == nil {
		out = append(out, issueRef{repo: repo, number: n})
	}
	return out
}

// mentionText is the prose of body: text outside code and HTML, one block
// or line per line, with link destinations on lines of their own.
func mentionText(body string) string {
	src := []byte(body)
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	var b strings.Builder
	_ = gmast.Walk(doc, func(n gmast.Node, entering bool) (gmast.WalkStatus, error) {
		if !entering {
			return gmast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *gmast.CodeSpan, *gmast.CodeBlock, *gmast.FencedCodeBlock, *gmast.HTMLBlock, *gmast.RawHTML:
			b.WriteByte('\n')
			return gmast.WalkSkipChildren, nil
		case *gmast.Link:
			b.WriteString("\n" + string(v.Destination) + "\n")
			return gmast.WalkSkipChildren, nil
		case *gmast.AutoLink:
			b.WriteString("\n" + string(v.URL(src)) + "\n")
			return gmast.WalkSkipChildren, nil
		case *gmast.Text:
			b.Write(v.Segment.Value(src))
			if v.SoftLineBreak() || v.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *gmast.String:
			b.Write(v.Value)
		default:
			if n.Type() == gmast.TypeBlock {
				b.WriteByte('\n')
			}
		}
		return gmast.WalkContinue, nil
	})
	return b.String()
}
