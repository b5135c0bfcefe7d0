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
	// CloseNoticePosted: a previous run posted the closing comment and stopped
	// before closing; close without commenting again.
	CloseNoticePosted bool
}

func (d Decision) String() string {
	return fmt.Sprintf("%s (%s)", d.Action, d.Reason)
}

// Decide applies the rules to one PR, under the policy For it (a coding
// agent's clock). act is nil when only the listing is known; the decision
// is then NeedDetail whenever the listing cannot settle it.
func Decide(pr PR, act *Activity, now time.Time, p Policy) Decision {
	p = p.For(pr)
	if r, exempt := exemption(pr, p); exempt {
		return Decision{Action: Skip, Reason: r, Rule: RuleExempt}
	}
	if act != nil && act.ClosedNow {
		// The listing said open, the history read since ends with a close:
		// another run (or a person) closed it meanwhile. Nothing written on
		// the listing's word may touch it now.
		return Decision{Action: Skip, Reason: ReasonClosedSince, Rule: RuleClosedSince}
	}
	if d, ok := intakeRule.Decide(Facts{PR: pr, Act: act, Now: now, Policy: p}); ok {
		return d
	}
	var d Decision
	if pr.HasLabel(p.StaleLabel) {
		d = p.hold(decideStale(pr, act, now, p), now)
	} else {
		d = p.hold(decideFresh(pr, act, now, p), now)
	}
	d.Rule = RuleInactivity
	if p.StaleClock == ClockAuthorTurn {
		d.Rule = RuleAuthorTurn
	}
	return d
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

func decideFresh(pr PR, act *Activity, now time.Time, p Policy) Decision {
	cutoff, ok := p.StaleCutoff(now)
	if !ok {
		return Decision{Action: Keep, Reason: ReasonNeverStale}
	}
	last, known := lastActivity(pr, act, cutoff, p)
	if !known {
		return Decision{Action: NeedDetail, Reason: ReasonActive}
	}
	if p.StaleClock == ClockAuthorTurn {
		var d Decision
		var done bool
		if d, last, done = turnFresh(pr, act, cutoff, last); done {
			return d
		}
	}
	if !last.Before(cutoff) {
		return Decision{Action: Keep, Reason: ReasonActive, InactiveSince: last}
	}
	if p.ExemptAwaitingReview || p.ExemptApproved {
		// Waiting on maintainers, not on the author: only the timeline
		// tells (reviews requested and given, approvals standing).
		if act == nil {
			return Decision{Action: NeedDetail, Reason: ReasonInactive, InactiveSince: last}
		}
		if p.ExemptAwaitingReview && act.AwaitingReview {
			return Decision{Action: Skip, Reason: ReasonAwaitingReview, InactiveSince: last}
		}
		if p.ExemptApproved && act.Approved {
			return Decision{Action: Skip, Reason: ReasonApproved, InactiveSince: last}
		}
	}
	why := ReasonInactive
	if p.StaleClock == ClockAuthorTurn {
		why = ReasonWaitingOnAuthor
	}
	if p.DaysBeforeClose == 0 {
		// Zero days of grace: close now, in the run that finds it stale, as
		// actions/stale does. A notice announcing an immediate close helps
		// nobody; the closing comment says it all.
		return Decision{Action: Close, Reason: why, InactiveSince: last, CloseAt: now}
	}
	return Decision{Action: Mark, Reason: why, InactiveSince: last, MarkedAt: now, CloseAt: p.CloseDate(now)}
}

// lastActivity is the last activity the inactivity rules count for an
// unlabelled PR; known is false when only its activity can tell.
func lastActivity(pr PR, act *Activity, cutoff time.Time, p Policy) (last time.Time, known bool) {
	// Only a PR updated after the cutoff but created before it may have
	// been active in a way updated_at does not tell.
	unsure := !pr.UpdatedAt.Before(cutoff) && pr.CreatedAt.Before(cutoff)
	// With the activity read, its answer is the last activity even where
	// the listing could settle the decision: the decision is the same
	// (stale or young either way), and the date is the one the mark counts
	// from (Next).
	switch {
	case p.IgnoreUpdates:
		// Age counts from creation, or from the last reopening: a reopened
		// PR is fresh whatever the inputs. A reopening moves updated_at, so
		// only a PR updated after the cutoff may hide one.
		if act != nil {
			return Later(pr.CreatedAt, act.ReopenedAt), true
		}
		return pr.CreatedAt, !unsure
	case p.ActivityFrom == People:
		// updated_at is an upper bound of a person's last activity, and
		// created_at a lower one: only PRs between the two need a look.
		if act != nil {
			return Later(pr.CreatedAt, act.LastPersonAt), true
		}
		if unsure {
			return time.Time{}, false
		}
	}
	return pr.UpdatedAt, true
}

// decideStale needs the PR's activity: the listing's updated_at cannot tell
// whether anything happened after the mark, since the mark itself moved it.
// (The sweep proves "nothing after our notice" from the repository's comments
// where it can, and passes that as the activity.)
func decideStale(pr PR, act *Activity, now time.Time, p Policy) Decision {
	if act == nil {
		return Decision{Action: NeedDetail, Reason: ReasonStaleWaiting}
	}
	personSince := act.LastPersonAt.After(act.MarkedAt)
	if p.StaleClock == ClockAuthorTurn {
		if act.Turn.Whose == TurnUnknown {
			return Decision{Action: NeedDetail, Reason: ReasonStaleWaiting}
		}
		var why Reason
		if why, personSince = turnStale(act, personSince); why != "" {
			return Decision{Action: Unstale, Reason: why, InactiveSince: act.Turn.Since, MarkedAt: act.MarkedAt}
		}
	}
	if personSince && p.RemoveStaleWhenUpdated && p.StaleClock != ClockAuthorTurn {
		return Decision{Action: Unstale, Reason: ReasonPersonActivity, InactiveSince: act.LastPersonAt, MarkedAt: act.MarkedAt}
	}
	if act.MarkedAt.IsZero() {
		return Decision{Action: Skip, Reason: ReasonMarkUnknown}
	}
	if !act.ForeignMark && act.NoticeAt.IsZero() && !p.NoStaleNotice {
		// Our label without our notice: a run stopped between the two, or
		// a maintainer deleted the notice. The author is told before
		// anything else, and the close waits a full window from now.
		return Decision{Action: Notify, Reason: ReasonNoticeMissing, InactiveSince: act.MarkedAt,
			MarkedAt: act.MarkedAt, CloseAt: p.CloseDate(now)}
	}
	// The close clock runs from when the author was told: our notice, or
	// someone else's label (actions/stale's, a maintainer's), which keeps
	// its own clock and gets no notice of ours.
	clock := act.MarkedAt
	if !act.ForeignMark && act.NoticeAt.Sub(act.MarkedAt) > updateSlack {
		clock = act.NoticeAt // posted by a later run: the author was told then
	}
	due := ReasonCloseDue
	if p.StaleClock == ClockAuthorTurn {
		due = ReasonCloseDueAuthorTurn
	}
	if personSince {
		// remove-stale-when-updated: false keeps the label, but a person's
		// activity still postpones the close.
		clock, due = act.LastPersonAt, ReasonCloseDueSincePerson
	}
	d := Decision{Action: Keep, Reason: ReasonStaleWaiting, InactiveSince: clock, MarkedAt: act.MarkedAt, CloseAt: p.CloseDate(clock)}
	if !d.CloseAt.IsZero() && !now.Before(d.CloseAt) {
		d.Action, d.Reason = Close, due
		d.CloseNoticePosted = !act.CloseNoticeAt.IsZero()
	}
	return d
}

// Later is the later of two times.
func Later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
