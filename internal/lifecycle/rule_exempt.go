package lifecycle

import "time"

// RuleExempt leaves alone what the policy exempts or filters out.
const RuleExempt RuleName = "exempt"

// exemptRule leaves alone what the policy exempts or filters out: a
// maintainer's to decide (Kept), created before start-date, a draft, a PR
// the labels or assignees filter out.
var exemptRule = Rule{
	Name: RuleExempt,
	Needs: func(p Policy, _ time.Time, n *Needs) {
		if len(p.ExemptAssignees) > 0 || p.ExemptAllAssignees || p.IncludeOnlyAssigned {
			n.Assignees = true
		}
	},
	Decide: func(f Facts) (Decision, bool) {
		r, exempt := exemption(f.PR, f.Policy)
		return Decision{Action: Skip, Reason: r}, exempt
	},
}

func exemption(pr PR, p Policy) (Reason, bool) {
	if r, ok := Kept(pr, p); ok {
		return r, true
	}
	switch {
	case !p.StartDate.IsZero() && pr.CreatedAt.Before(p.StartDate):
		return ReasonStartDate, true
	case p.ExemptDraft && pr.Draft && !(p.CloseAction == CloseToDraft && pr.HasLabel(p.StaleLabel)):
		// With close-action draft, a stale-labelled draft may be our own
		// conversion whose last writes (closing comment, label removal) a
		// crash cut off: it must reach decideStale to be finished.
		return ReasonDraft, true
	case p.OnlyDraft && !pr.Draft:
		return ReasonNotDraft, true
	case !hasAll(pr.Labels, p.OnlyLabels):
		return ReasonOnlyLabels, true
	case len(p.AnyOfLabels) > 0 && !intersectsFold(pr.Labels, p.AnyOfLabels):
		return ReasonAnyOfLabels, true
	case p.IncludeOnlyAssigned && len(pr.Assignees) == 0:
		return ReasonUnassigned, true
	}
	return "", false
}

// Kept reports why a PR is a maintainer's to decide whatever its clock: a
// locked conversation, an exempt author, label, milestone or assignee. The
// closure audit reads it too: a closed PR so kept is never reopened.
func Kept(pr PR, p Policy) (Reason, bool) {
	switch {
	case pr.Locked:
		// A locked conversation is the maintainers' decision: no notice
		// could be answered there but by them, and actions/stale leaves it
		// alone too, stale label included.
		return ReasonLocked, true
	case matchAny(p.ExemptAuthors, pr.Author):
		return ReasonExemptAuthor, true
	case intersectsFold(pr.Labels, p.ExemptLabels):
		return ReasonExemptLabel, true
	case pr.Milestone != "" && (p.ExemptAllMilestones || ContainsFold(p.ExemptMilestones, pr.Milestone)):
		return ReasonExemptMilestone, true
	case len(pr.Assignees) > 0 && (p.ExemptAllAssignees || intersectsFold(pr.Assignees, p.ExemptAssignees)):
		return ReasonExemptAssignee, true
	}
	return "", false
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !ContainsFold(have, w) {
			return false
		}
	}
	return true
}
