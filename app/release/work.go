package release

import (
	"context"
	"slices"

	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/webhook"
)

// JudgeRelease verifies a release's closure: Tag's, or the Latest
// release's when Latest is set.
type JudgeRelease struct {
	Tag    string
	Latest bool
}

// WorkKind implements route.Work.
func (JudgeRelease) WorkKind() string { return "JudgeRelease" }

// releaseView is what the release family reads.
type releaseView struct {
	Release *struct {
		TagName string `json:"tag_name"`
	} `json:"release"`
}

// Family: a release published, edited or withdrawn has its closure
// verified again.
func Family() route.Family {
	return route.Family{
		Name:   "release",
		Events: map[string][]string{"release": slices.Clone(Actions)},
		View:   func() any { return new(releaseView) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[releaseView](raw)
			if err != nil || v.Release == nil || v.Release.TagName == "" {
				return nil, err
			}
			return []route.Work{JudgeRelease{Tag: v.Release.TagName}}, nil
		},
	}
}

// Register makes a copy of judge, the installation's, do each JudgeRelease.
func Register(h *route.Handlers, judge Judge) {
	route.Handle(h, func(ctx context.Context, w route.Where, j JudgeRelease) error {
		jd := judge
		return jd.Run(ctx, Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo, Tag: j.Tag})
	})
}
