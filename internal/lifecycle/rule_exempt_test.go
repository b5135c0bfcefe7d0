package lifecycle_test

import (
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestDecideExemptions(t *testing.T) { // rule 6
	old := daysAgo(60)
	due := marked(daysAgo(20))
	pol := func(f func(*lifecycle.Policy)) lifecycle.Policy { return policy(f) }
	runDecide(t, []decideCase{
		{
			// A locked conversation is left alone, as actions/stale
			// does: no notice, no close, and a stale label stays as it is.
			name: "locked: not marked",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Locked = true }), policy: policy(),
			want: lifecycle.Skip, reason: lifecycle.ReasonLocked,
		},
		{
			name: "locked, stale and due for closing: left alone",
			pr:   with(pr(old, staleLabel), func(p *lifecycle.PR) { p.Locked = true }), act: due, policy: policy(),
			want: lifecycle.Skip, reason: lifecycle.ReasonLocked,
		},
		{
			name: "locked, stale, a person acted after the mark: left alone, label too",
			pr:   with(pr(daysAgo(1), staleLabel), func(p *lifecycle.PR) { p.Locked = true }),
			act:  &lifecycle.Activity{MarkedAt: daysAgo(20), NoticeAt: daysAgo(20), LastPersonAt: daysAgo(1)}, policy: policy(),
			want: lifecycle.Skip, reason: lifecycle.ReasonLocked,
		},
		{
			name: "exempt label, case-insensitive: skip",
			pr:   pr(old, "Pinned"), policy: pol(func(p *lifecycle.Policy) { p.ExemptLabels = []string{"bug", "pinned"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptLabel,
		},
		{
			name: "exempt label on an already stale PR due for closing: skip",
			pr:   pr(old, staleLabel, "pinned"), act: due, policy: pol(func(p *lifecycle.Policy) { p.ExemptLabels = []string{"PINNED"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptLabel,
		},
		{
			name: "without an exempt label: mark",
			pr:   pr(old, "enhancement"), policy: pol(func(p *lifecycle.Policy) { p.ExemptLabels = []string{"pinned"} }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "only-labels: one of two required labels: skip",
			pr:   pr(old, "needs-info"), policy: pol(func(p *lifecycle.Policy) { p.OnlyLabels = []string{"needs-info", "waiting"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonOnlyLabels,
		},
		{
			name: "only-labels: an already stale PR lacking them: skip",
			pr:   pr(old, staleLabel), act: due, policy: pol(func(p *lifecycle.Policy) { p.OnlyLabels = []string{"needs-info"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonOnlyLabels,
		},
		{
			name: "only-labels: all required labels, case-insensitive: mark",
			pr:   pr(old, "Waiting", "NEEDS-INFO"), policy: pol(func(p *lifecycle.Policy) { p.OnlyLabels = []string{"needs-info", "waiting"} }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "any-of-labels: none of them: skip",
			pr:   pr(old, "docs"), policy: pol(func(p *lifecycle.Policy) { p.AnyOfLabels = []string{"needs-info", "waiting"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonAnyOfLabels,
		},
		{
			name: "any-of-labels: one of them, case-insensitive: mark",
			pr:   pr(old, "docs", "Waiting"), policy: pol(func(p *lifecycle.Policy) { p.AnyOfLabels = []string{"needs-info", "waiting"} }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt milestone, case-insensitive: skip",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Milestone = "V2.0" }), policy: pol(func(p *lifecycle.Policy) { p.ExemptMilestones = []string{"v2.0"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptMilestone,
		},
		{
			name: "another milestone: mark",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Milestone = "v3.0" }), policy: pol(func(p *lifecycle.Policy) { p.ExemptMilestones = []string{"v2.0"} }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt all milestones, with a milestone: skip",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Milestone = "backlog" }), policy: pol(func(p *lifecycle.Policy) { p.ExemptAllMilestones = true }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptMilestone,
		},
		{
			name: "exempt all milestones, without a milestone: mark",
			pr:   pr(old), policy: pol(func(p *lifecycle.Policy) { p.ExemptAllMilestones = true }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt assignee, case-insensitive: skip",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Assignees = []string{"carol", "Dave"} }), policy: pol(func(p *lifecycle.Policy) { p.ExemptAssignees = []string{"dave"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptAssignee,
		},
		{
			name: "another assignee: mark",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Assignees = []string{"carol"} }), policy: pol(func(p *lifecycle.Policy) { p.ExemptAssignees = []string{"dave"} }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt all assignees, assigned: skip",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Assignees = []string{"carol"} }), policy: pol(func(p *lifecycle.Policy) { p.ExemptAllAssignees = true }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptAssignee,
		},
		{
			name: "exempt all assignees, unassigned: mark",
			pr:   pr(old), policy: pol(func(p *lifecycle.Policy) { p.ExemptAllAssignees = true }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt draft, draft: skip",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Draft = true }), policy: pol(func(p *lifecycle.Policy) { p.ExemptDraft = true }),
			want: lifecycle.Skip, reason: lifecycle.ReasonDraft,
		},
		{
			name: "draft without exempt-draft: mark",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Draft = true }), policy: policy(),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "include-only-assigned, unassigned: skip",
			pr:   pr(old), policy: pol(func(p *lifecycle.Policy) { p.IncludeOnlyAssigned = true }),
			want: lifecycle.Skip, reason: lifecycle.ReasonUnassigned,
		},
		{
			name: "include-only-assigned, assigned: mark",
			pr:   with(pr(old), func(p *lifecycle.PR) { p.Assignees = []string{"carol"} }), policy: pol(func(p *lifecycle.Policy) { p.IncludeOnlyAssigned = true }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "start-date: created before it: skip",
			pr:   with(pr(old), created(daysAgo(100))), policy: pol(func(p *lifecycle.Policy) { p.StartDate = daysAgo(99) }),
			want: lifecycle.Skip, reason: lifecycle.ReasonStartDate,
		},
		{
			name: "start-date: stale PR created before it: skip, never closed",
			pr:   with(pr(old, staleLabel), created(daysAgo(100))), act: due, policy: pol(func(p *lifecycle.Policy) { p.StartDate = daysAgo(99) }),
			want: lifecycle.Skip, reason: lifecycle.ReasonStartDate,
		},
		{
			name: "start-date: created exactly at it: mark",
			pr:   with(pr(old), created(daysAgo(100))), policy: pol(func(p *lifecycle.Policy) { p.StartDate = daysAgo(100) }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
	})
}
