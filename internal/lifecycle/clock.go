package lifecycle

import "time"

// staleClock is the clock the stale rules share (inactivity, author-turn):
// a PR is marked after days-before-stale days and closed days-before-close
// days after its notice, unless a person's activity un-stales it or
// postpones the close. What one rule counts differently from the other
// are its hooks, in the rule's own file.
type staleClock struct {
	// fresh, when set, decides an unlabelled PR whose last activity is
	// last (known) before the clock does (done), or answers the time the
	// clock counts from instead.
	fresh func(f Facts, cutoff, last time.Time) (d Decision, since time.Time, done bool)
	// stale decides a stale-labelled PR, its activity read, before the close
	// clock does (done), or answers whether a person's activity since
	// the mark still postpones the close.
	stale func(f Facts, personSince bool) (d Decision, postpones, done bool)
	// waiting is the mark's reason (or the close's with days-before-close 0)
	// and missing a late notice's, under the policy: the words are keyed
	// by them (notice.Text); due is the close's.
	waiting, missing func(Policy) Reason
	due              Reason
	// told is what a notice posted late counts its days from
	// ({{days-inactive}}): what the rule's mark counted from, as the
	// activity read tells it, never earlier than the truth.
	told func(Facts) time.Time
}

// decide is the clock's decision, dated (Decision.DueAt): an unlabelled
// PR's mark (or, with days-before-close 0, its close) falls due
// days-before-stale days after the activity it counts from, a stale one's
// close at its CloseAt.
func (c staleClock) decide(f Facts) Decision {
	if f.PR.HasLabel(f.Policy.StaleLabel) {
		d := c.decideStale(f)
		switch d.Action {
		case Keep, Notify, Close:
			d.DueAt = d.CloseAt
		}
		return d
	}
	d := c.decideFresh(f)
	switch d.Action {
	case Keep, Mark:
		d.DueAt = f.Policy.MarkDate(d.InactiveSince)
	case Close:
		d.DueAt = d.CloseAt
	}
	return d
}

func (c staleClock) decideFresh(f Facts) Decision {
	pr, act, now, p := f.PR, f.Act, f.Now, f.Policy
	cutoff, ok := p.StaleCutoff(now)
	if !ok {
		return Decision{Action: Keep, Reason: ReasonNeverStale}
	}
	last, known := lastActivity(pr, act, cutoff, p)
	if !known {
		return Decision{Action: NeedDetail, Reason: ReasonActive}
	}
	if c.fresh != nil {
		var d Decision
		var done bool
		if d, last, done = c.fresh(f, cutoff, last); done {
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
	if p.DaysBeforeClose == 0 {
		// Zero days of grace: close now, in the run that finds it stale, as
		// actions/stale does. A notice announcing an immediate close helps
		// nobody; the closing comment says it all.
		return Decision{Action: Close, Reason: c.waiting(p), InactiveSince: last, CloseAt: now}
	}
	return Decision{Action: Mark, Reason: c.waiting(p), InactiveSince: last, MarkedAt: now, CloseAt: p.CloseDate(now)}
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
func (c staleClock) decideStale(f Facts) Decision {
	act, now, p := f.Act, f.Now, f.Policy
	if act == nil {
		return Decision{Action: NeedDetail, Reason: ReasonStaleWaiting}
	}
	personSince := act.LastPersonAt.After(act.MarkedAt)
	d, personSince, done := c.stale(f, personSince)
	if done {
		return d
	}
	if act.MarkedAt.IsZero() {
		return Decision{Action: Skip, Reason: ReasonMarkUnknown}
	}
	if !act.ForeignMark && act.NoticeAt.IsZero() && !p.NoStaleNotice {
		// Our label without our notice: a run stopped between the two, or
		// a maintainer deleted the notice. The author is told before
		// anything else, and the close waits a full window from now.
		return Decision{Action: Notify, Reason: c.missing(p), InactiveSince: c.told(f),
			MarkedAt: act.MarkedAt, CloseAt: p.CloseDate(now)}
	}
	// The close clock runs from when the author was told: our notice, or
	// someone else's label (actions/stale's, a maintainer's), which keeps
	// its own clock and gets no notice of ours.
	clock := act.MarkedAt
	if !act.ForeignMark && act.NoticeAt.Sub(act.MarkedAt) > updateSlack {
		clock = act.NoticeAt // posted by a later run: the author was told then
	}
	due := c.due
	if personSince {
		// remove-stale-when-updated: false keeps the label, but a person's
		// activity still postpones the close.
		clock, due = act.LastPersonAt, ReasonCloseDueSincePerson
	}
	d = Decision{Action: Keep, Reason: ReasonStaleWaiting, InactiveSince: clock, MarkedAt: act.MarkedAt, CloseAt: p.CloseDate(clock)}
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
