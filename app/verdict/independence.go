package verdict

import (
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Independence is what the completion certificate records of an agent's
// pull request (certificate.Independence): each push with who pushed it
// (pusherOf),
// its agent and who instructed that agent for it, the approvals that
// counted (Fates) and how many people were needed. nil when no listed
// agent made the pull request.
func (ev *Evaluation) Independence() *certificate.Independence {
	d := ev.Fates()
	if d == nil {
		return nil
	}
	out := &certificate.Independence{Needed: d.Needed, Pushes: []certificate.Push{}, Counted: []certificate.Approval{}}
	for _, p := range ev.AgentPushes {
		cp := certificate.Push{N: p.N, Head: p.Head, Author: ev.pusherOf(p.Push), Agent: p.Agent}
		if p.Instructor != nil {
			cp.Instructor = &certificate.Instruction{Login: p.Instructor.Author, Channel: certChannels[p.Instructor.Channel]}
		}
		out.Pushes = append(out.Pushes, cp)
	}
	for _, f := range d.Fates {
		if f.Outcome == instructor.Counted {
			out.Counted = append(out.Counted, certificate.Approval{Login: f.Login, Kind: certKinds[f.Kind], Head: f.Head})
		}
	}
	return out
}

// pusherOf is who pushed p: the actor GitHub names for a force push, else
// the pusher the App recorded for its commit (Pushers); "" when neither
// says.
func (ev *Evaluation) pusherOf(p instructor.Push) string {
	if p.Pusher != "" {
		return p.Pusher
	}
	for _, r := range ev.Pushers {
		if r.SHA == p.Head && r.Login != "" {
			return r.Login
		}
	}
	return ""
}

// certChannels and certKinds name instructor's channels and approval
// kinds as the certificate does; one it does not name is written "" and
// the certificate refuses it (invalid:independence).
var (
	certChannels = map[instructor.Channel]string{
		instructor.ChannelIssueAssignment: certificate.ChannelIssueAssignment,
		instructor.ChannelPullAssignment:  certificate.ChannelPullAssignment,
		instructor.ChannelComment:         certificate.ChannelComment,
		instructor.ChannelReview:          certificate.ChannelReview,
		instructor.ChannelReviewComment:   certificate.ChannelReviewComment,
		instructor.ChannelLabel:           certificate.ChannelLabel,
		instructor.ChannelWorkflow:        certificate.ChannelWorkflow,
	}
	certKinds = map[instructor.Kind]string{
		instructor.KindAudit:   certificate.ApprovalAudit,
		instructor.KindReview:  certificate.ApprovalReview,
		instructor.KindGate:    certificate.ApprovalGate,
		instructor.KindCommand: certificate.ApprovalCommand,
	}
)
