package lifecycle

import "time"

// The dates of the policy: when a PR gets marked, closed, nudged, and the
// instants the sweep compares with. They are spelled here only, so that
// sweep and report do no day arithmetic of their own, and quiet days
// (quiet.go) move every one of them alike.

// StaleCutoff is the instant before which a PR's last activity makes it stale.
// ok is false when marking is disabled. Quiet days do not count: in a
// quiet period it is the cutoff of the period's end.
func (p Policy) StaleCutoff(now time.Time) (cutoff time.Time, ok bool) {
	if p.DaysBeforeStale < 0 {
		return time.Time{}, false
	}
	return p.Quiet.before(p.Quiet.Resume(now), time.Duration(p.DaysBeforeStale)*Day), true
}

// CloseDate is when a PR marked at markedAt closes if nobody acts; quiet
// days do not count.
func (p Policy) CloseDate(markedAt time.Time) time.Time {
	if p.DaysBeforeClose < 0 || markedAt.IsZero() {
		return time.Time{}
	}
	return p.Quiet.after(markedAt, time.Duration(p.DaysBeforeClose)*Day)
}

// MarkDate is the first instant a PR last active at last gets marked at if
// nobody acts: a PR is stale once more than days-before-stale days passed
// (StaleCutoff), so one nanosecond after the days; zero when marking is
// disabled or last is unknown.
func (p Policy) MarkDate(last time.Time) time.Time {
	if p.DaysBeforeStale < 0 || last.IsZero() {
		return time.Time{}
	}
	return p.Quiet.after(last, time.Duration(p.DaysBeforeStale)*Day).Add(time.Nanosecond)
}

// NudgeDate is when the reviewers of a PR on their turn since since get
// nudged; zero when the nudge is off or since is unknown.
func (p Policy) NudgeDate(since time.Time) time.Time {
	if p.DaysBeforeReviewNudge < 0 || since.IsZero() {
		return time.Time{}
	}
	return p.Quiet.after(since, time.Duration(p.DaysBeforeReviewNudge)*Day)
}

// nudgeDue reports whether a nudge counted from since is due at now, outside a quiet
// period.
func (p Policy) nudgeDue(since, now time.Time) bool {
	due := p.NudgeDate(since)
	return !due.IsZero() && !now.Before(due) && !p.Quiet.Paused(now)
}

// Due is when a step falling due at due is taken, seen from a run at now:
// due itself, unless now is in a quiet period and due is before its end,
// when the step waits for that end (a step already due when the period
// began). Zero stays zero.
func (p Policy) Due(due, now time.Time) time.Time {
	if due.IsZero() || !p.Quiet.Paused(now) {
		return due
	}
	return Later(due, p.Quiet.Resume(now))
}

// CleanupSince is how far back label hygiene looks for closed PRs that
// still carry the stale label (rule 12): days-before-close days (the
// agents' when longer), 30 when
// closing is off, at least one. Calendar days: clean-ups go on in quiet
// periods, so none waits through one.
func (p Policy) CleanupSince(now time.Time) time.Time {
	days := p.DaysBeforeClose
	if p.AgentClock.On && p.AgentClock.DaysBeforeClose > days {
		days = p.AgentClock.DaysBeforeClose // agents' PRs close later
	}
	if days < 0 {
		days = 30
	}
	return now.Add(-time.Duration(max(days, 1)) * Day)
}

// FirstMarkDate is the first instant a PR last active at last may be
// marked, on the soonest of the classes' clocks: how far a listing stopped
// at the stale cutoff (Needs.Cutoff) foresees marks. Zero when no clock
// marks.
func (p Policy) FirstMarkDate(last time.Time) time.Time {
	return p.soonest().MarkDate(last)
}

// soonest is the policy whose stale clock marks soonest of everyone's and,
// when on, the agents': what the listing's cutoff and the marks it can
// foresee count with.
func (p Policy) soonest() Policy {
	a := p.AgentClock
	if a.On && a.DaysBeforeStale >= 0 && (p.DaysBeforeStale < 0 || a.DaysBeforeStale < p.DaysBeforeStale) {
		p.DaysBeforeStale = a.DaysBeforeStale
	}
	return p
}

// Marks reports whether some clock marks: everyone's or the agents'.
func (p Policy) Marks() bool {
	return p.DaysBeforeStale >= 0 || p.AgentClock.On && p.AgentClock.DaysBeforeStale >= 0
}

// Closes reports whether some clock closes: everyone's or the agents', or
// a rule of its own (Rule.Closes): what a close needs (the budget, the
// reopen command, a closing comment's copy looked for) follows every rule
// that closes, not only the stale clocks.
func (p Policy) Closes() bool {
	if p.DaysBeforeClose >= 0 || p.AgentClock.On && p.AgentClock.DaysBeforeClose >= 0 {
		return true
	}
	for _, r := range rules {
		if r.Closes != nil && r.Closes(p) {
			return true
		}
	}
	return false
}
