package boardweb

import (
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/boardview"
)

// BoardPage is one HTML page of the owner's board (docs/board.md): the
// repositories the reader may see, each with the board the App kept, or a
// notice alone (the page is off, sign in, refused).
type BoardPage struct {
	// Title is the page's title and heading.
	Title string
	// Login is the signed-in person, "" when nobody is (the local board).
	Login string
	// LogoutPath is where the sign-out form posts, with Login.
	LogoutPath string
	// Notice, when set, is shown above the repositories.
	Notice *BoardNotice
	// Repos are the repositories shown, in order.
	Repos []BoardPageRepo
	// Generated is when the page was made, shown in its footer.
	Generated time.Time
}

// BoardNotice is a message on the page: a heading, paragraphs, an optional
// block of literal text (e.g. flags to set) and an optional link.
type BoardNotice struct {
	Heading  string
	Lines    []string
	Code     string
	LinkText string
	LinkURL  string
}

// BoardPageRepo is one repository on the page: its kept board, or none yet.
type BoardPageRepo struct {
	Repo  string
	Kept  bool
	Board boardview.Board
}

// RenderBoardPage renders p as a self-contained HTML page: inline CSS,
// the dependency graphs as inline SVG, no script and no external URL other
// than the links into GitHub the boards carry.
func RenderBoardPage(p BoardPage) ([]byte, error) {
	v := pageView{Title: p.Title, Login: p.Login, LogoutPath: p.LogoutPath, Notice: p.Notice, Generated: htmlTime(p.Generated)}
	for i, r := range p.Repos {
		v.Repos = append(v.Repos, repoViewOf(r, "g"+strconv.Itoa(i)))
	}
	return renderPageView(v)
}

// renderPageView executes the page template on v.
func renderPageView(v pageView) ([]byte, error) {
	var buf bytes.Buffer
	if err := boardPageTemplate().Execute(&buf, v); err != nil {
		return nil, fmt.Errorf("render board page: %w", err)
	}
	return buf.Bytes(), nil
}

// pageView is what the template shows; the kept boards and the local run
// documents both become one.
type pageView struct {
	Title, Login, LogoutPath string
	Notice                   *BoardNotice
	Repos                    []repoView
	Generated                string
}

type repoView struct {
	Name, URL, Anchor string
	Kept              bool
	Empty             string // what to say when the repository has no board
	Inbox             []boardview.InboxItem
	Graph             template.HTML // the whole repository's graph (local board)
	Increments        []incrementView
	Certificates      []boardview.Certificate
}

type incrementView struct {
	Title, URL, Meta string
	Open             bool
	Local            bool // a phase of local run documents: items, no attempts
	Problems         []string
	Counts           []stateCount
	Graph            template.HTML
	Stories          []storyView
	// Stage, Tier, Waiting, AcceptCommand and Certificate are the increment's
	// (board.Increment).
	Stage, Tier   string
	Waiting       []string
	AcceptCommand string
	Certificate   *boardview.IncrementCertificate
}

type stateCount struct {
	State, Class string
	N            int
}

type storyView struct {
	Ref, Title, URL, State, Class, Reason, Detail string
	Attempts                                      []boardview.Attempt
}

// repoViewOf turns one kept board (or its absence) into the template's view;
// id makes the graphs' element IDs unique on the page.
func repoViewOf(r BoardPageRepo, id string) repoView {
	b := r.Board
	v := repoView{Name: r.Repo, URL: b.URL, Anchor: id, Kept: r.Kept, Inbox: b.Inbox, Certificates: b.Certificates}
	if !r.Kept {
		v.Empty = "The App has not kept a board for this repository yet; it makes one at its next evaluation of a pull request or the next reconcile sweep."
		return v
	}
	for i, inc := range b.Increments {
		v.Increments = append(v.Increments, incrementViewOf(inc, id+"-"+strconv.Itoa(i)))
	}
	return v
}

func incrementViewOf(inc boardview.Increment, id string) incrementView {
	v := incrementView{Title: inc.Title, URL: inc.URL, Open: inc.Open, Problems: inc.Problems, Meta: "closed",
		Stage: string(inc.Stage), Tier: inc.Tier, Waiting: inc.Waiting, AcceptCommand: inc.AcceptCommand, Certificate: inc.Certificate}
	if inc.Open {
		v.Meta = "open"
	}
	counts := map[boardview.State]int{}
	var nodes []BoardGraphNode
	for _, s := range inc.Stories {
		counts[s.State]++
		v.Stories = append(v.Stories, storyView{
			Ref: "#" + strconv.Itoa(s.Number), Title: s.Title, URL: s.URL, State: string(s.State),
			Class: htmlStateClass(string(s.State)), Reason: s.Reason, Detail: storyDetail(s), Attempts: s.Attempts,
		})
		nodes = append(nodes, storyNode(s))
	}
	for _, st := range []boardview.State{boardview.StateOpen, boardview.StateInProgress, boardview.StateInReview, boardview.StateBlocked,
		boardview.StateHeld, boardview.StateMerged, boardview.StateDone, boardview.StateCertified, boardview.StateCancelled} {
		if counts[st] > 0 {
			v.Counts = append(v.Counts, stateCount{State: string(st), Class: htmlStateClass(string(st)), N: counts[st]})
		}
	}
	v.Graph = BoardGraphSVG(id, nodes)
	return v
}

func storyNode(s boardview.Story) BoardGraphNode {
	n := BoardGraphNode{ID: strconv.Itoa(s.Number), Label: "#" + strconv.Itoa(s.Number), Title: s.Title, State: string(s.State), URL: s.URL}
	for _, d := range s.DependsOn {
		n.Deps = append(n.Deps, strconv.Itoa(d))
	}
	return n
}

// storyDetail is a story's class, risk and dependencies in a few words.
func storyDetail(s boardview.Story) string {
	out := s.Class
	if s.Risk != "" {
		out = joinNonEmpty(out, s.Risk+" risk")
	}
	if len(s.DependsOn) > 0 {
		deps := make([]string, len(s.DependsOn))
		for i, d := range s.DependsOn {
			deps[i] = "#" + strconv.Itoa(d)
		}
		out = joinNonEmpty(out, "after "+strings.Join(deps, ", "))
	}
	return out
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + " · " + b
}

// htmlTime spells t for the page, in UTC to the minute ("" for zero).
func htmlTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
