package verdict

import (
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Independence is what the completion certificate records of an agent's
// pull request (certificate.Independence): each push with who pushed it
// (pusherOf),
// its agent and who instructed that agent for it, the approvals that
// counted (Fates), how many people were needed, and who assigned an agent
// on the unit issue (assigners). nil when no listed
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
	out.Assigners = assigners(ev.Instructed)
	return out
}

// assigners are who instructed an agent on the unit issue (the finding's
// instructors by an assignment role; the instructors of pushes are in the
// pushes), one entry per role.
func assigners(f *instructor.Finding) []certificate.Assigner {
	var out []certificate.Assigner
	for _, i := range f.Instructors {
		for _, r := range i.Roles {
			if role, ok := certRoles[r]; ok {
				out = append(out, certificate.Assigner{Login: i.Login, Agent: i.Agent, Role: role})
			}
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

// certChannels, certRoles and certKinds name instructor's channels,
// assignment roles and approval kinds as the certificate does; a channel
// or kind it does not name is written "" and the certificate refuses it
// (invalid:independence).
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
	certRoles = map[instructor.Role]string{instructor.RoleAssigner: certificate.RoleAssigned, instructor.RoleAssignee: certificate.RoleAssignee}
	certKinds = map[instructor.Kind]string{
		instructor.KindAudit:   certificate.ApprovalAudit,
		instructor.KindReview:  certificate.ApprovalReview,
		instructor.KindGate:    certificate.ApprovalGate,
		instructor.KindCommand: certificate.ApprovalCommand,
	}
)
