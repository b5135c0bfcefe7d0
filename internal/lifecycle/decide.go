package lifecycle

import (
	"fmt"
	"time"
)

// Action is what the sweep should do with a PR.
type Action int

const (
	Keep         Action = iota // nothing to do now
	Skip                       // exempt or filtered out by the policy
	NeedDetail                 // the listing cannot decide: read the PR's activity, then decide again
	Mark                       // add the stale label and post the stale notice
	Notify                     // labelled but our notice is missing (a crash, or a person's label): post it
	Unstale                    // a person acted after the mark: take the label off
	Close                      // post the closing comment (unless already there) and close
	NotifyIntake               // post the intake notice (no label): the intake clock's close counts from it
)

func (a Action) String() string {
	switch a {
	case Keep:
		return "keep"
	case Skip:
		return "skip"
	case NeedDetail:
		return "need-detail"
	case Mark:
		return "mark"
	case Notify:
		return "notify"
	case Unstale:
		return "unstale"
	case Close:
		return "close"
	case NotifyIntake:
		return "notify-intake"
	}
	// A constant added without its word shows as a number, not a panic.
	return fmt.Sprintf("action(%d)", int(a))
}

// Reason says why, in a form tests and the summary can rely on.
type Reason string

const (
	ReasonActive          Reason = "active"
	ReasonInactive        Reason = "inactive"
	ReasonStaleWaiting    Reason = "stale, waiting for activity"
	ReasonPersonActivity  Reason = "activity by a person after the mark"
	ReasonCloseDue        Reason = "no activity by a person since the mark"
	ReasonNoticeMissing   Reason = "labelled without notice"
	ReasonReopened        Reason = "reopened"
	ReasonStartDate       Reason = "created before start-date"
	ReasonDraft           Reason = "draft"
	ReasonExemptLabel     Reason = "exempt label"
	ReasonOnlyLabels      Reason = "lacks only-labels"
	ReasonAnyOfLabels     Reason = "lacks any-of-labels"
	ReasonExemptMilestone Reason = "exempt milestone"
	ReasonExemptAssignee  Reason = "exempt assignee"
	ReasonUnassigned      Reason = "not assigned (include-only-assigned)"
	ReasonAwaitingReview  Reason = "awaiting review"
	ReasonMarkUnknown     Reason = "cannot tell when it was marked"
	ReasonNeverStale      Reason = "marking disabled"
	ReasonExemptAuthor    Reason = "exempt author"
	ReasonNotDraft        Reason = "not a draft (only-draft-pr)"
	ReasonApproved        Reason = "approved, waiting on maintainers"
	ReasonLocked          Reason = "locked"
	ReasonClosedSince     Reason = "closed since it was listed"
)

// ReasonCloseDueAuthorTurn is the close under author-turn, where only the
// author's answer postpones it: a maintainer may have commented.
// ReasonWaitingOnAuthor is the mark (or, with days-before-close 0, the
// close) there: "inactive" would be false of a PR a maintainer commented on.
const (
	ReasonCloseDueAuthorTurn Reason = "no answer by the author since the mark"
	ReasonWaitingOnAuthor    Reason = "waiting on the author"
)

// ReasonCloseDueSincePerson is the close when, with remove-stale-when-updated false, a person
// acted after the mark and the close clock ran from that, not from the mark.
const ReasonCloseDueSincePerson Reason = "no activity since a person's last, after the mark"

// Decision is the outcome of the rules for one PR.
type Decision struct {
	Action Action
	Reason Reason
	// Rule is the rule that decided (a close's marker records it).
	Rule RuleName
	// InactiveSince is the last activity the decision counted.
	InactiveSince time.Time
	// MarkedAt is when the stale label was added (zero when not stale or unknown).
	MarkedAt time.Time
	// CloseAt is when a stale PR closes if nobody acts (zero: never).
	CloseAt time.Time
	// DueAt is the date the deciding rule's clock gives: when a Mark or a
	// Close fell due, and after a Keep (or a Notify, or a write a quiet
	// period holds) when the PR's next step falls due if nothing happens
	// but time: its mark, or if stale its close. Zero when the rule
	// foresees none. Next takes its forecast from it.
	DueAt time.Time
	// CloseNoticePosted: a previous run posted the closing comment and stopped
	// before closing; close without commenting again.
	CloseNoticePosted bool
}

func (d Decision) String() string {
	return fmt.Sprintf("%s (%s)", d.Action, d.Reason)
}

// Decide applies the rules to one PR, under the policy For it (a coding
// agent's clock), in the order of the list (rules.go): the first rule that
// answers decides, and the decision names it. A quiet period then holds
// what it would write (hold). act is nil when only the listing is known;
// the decision is then NeedDetail whenever the listing cannot settle it.
func Decide(pr PR, act *Activity, now time.Time, p Policy) Decision {
	return decideWith(rules, pr, act, now, p)
}

// decideWith is Decide under the list of rules given.
func decideWith(rules []Rule, pr PR, act *Activity, now time.Time, p Policy) Decision {
	p = p.For(pr)
	f := Facts{PR: pr, Act: act, Now: now, Policy: p}
	var soonest time.Time // the due date of a rule that left the PR to the next
	for _, r := range rules {
		d, ok := r.Decide(f)
		if !ok {
			soonest = earliest(soonest, d.DueAt)
			continue
		}
		d.Rule = r.Name
		if d.Action == Keep {
			// A rule that is not due yet leaves the PR to the next, and
			// its date to the forecast: Next confirms it by deciding then.
			d.DueAt = earliest(d.DueAt, soonest)
		}
		return p.hold(d, now)
	}
	// The stale rules answer for every clock: not reached.
	return Decision{Action: Keep, Reason: ReasonNeverStale}
}

// earliest is the earlier of two dates, zero meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
