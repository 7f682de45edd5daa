// Package toyfeature is a feature of the App that exists to show what
// adding one costs (app.Feature): an event family (commit_comment
// created), a work type (Noted) and a check ("toy/noted", a check run on
// the commented commit, written through the installation's writer). A
// test adds it with one line: Seams.Features = append(app.Features(),
// toyfeature.Feature()).
package toyfeature

import (
	"context"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/checks"
)

// CheckName is the toy check's name.
const CheckName = "toy/noted"

// Noted is the toy's work: a comment on commit SHA by Login.
type Noted struct{ SHA, Login string }

// WorkKind implements route.Work.
func (Noted) WorkKind() string { return "toy.Noted" }

// view is what the toy reads of a commit_comment payload.
type view struct {
	Comment struct {
		CommitID string `json:"commit_id"`
		User     struct {
			Login string `json:"login"`
		} `json:"user"`
	} `json:"comment"`
}

// Family is the toy's event family: a created commit comment asks for Noted.
func Family() route.Family {
	return route.Family{
		Name:   "toy",
		Events: map[string][]string{"commit_comment": {"created"}},
		View:   func() any { return new(view) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[view](raw)
			if err != nil || v.Comment.CommitID == "" {
				return nil, err
			}
			return []route.Work{Noted{SHA: v.Comment.CommitID, Login: v.Comment.User.Login}}, nil
		},
	}
}

// Feature is the toy feature: its family and its handler, which writes
// the toy check on the commented commit.
func Feature() app.Feature {
	return app.Feature{Name: "toy", Families: []route.Family{Family()}, Register: func(h *route.Handlers, in *app.Installation) {
		route.Handle(h, func(ctx context.Context, w route.Where, x Noted) error {
			run := checks.Run{Name: CheckName, HeadSHA: x.SHA, Conclusion: checks.ConclusionSuccess, Title: "noted by " + x.Login,
				Summary: "The toy feature saw a comment on this commit."}
			_, err := in.Writer().Publish(ctx, w.Owner, w.Repo, run, true, false)
			return err
		})
	}}
}
