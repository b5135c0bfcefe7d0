package lifecycle

import (
	"errors"
	"sort"
	"time"
)

// Quiet periods (README: "The rules", quiet periods). A quiet day is a
// whole UTC day on which stalepr marks, closes and nudges nothing, and
// which no clock counts: days-before-stale, days-before-close and
// days-before-review-nudge count unquiet time only, so a step that would
// fall due on or after a quiet day falls due that many days later. The
// policy's dates (dates.go: MarkDate, CloseDate, NudgeDate, StaleCutoff)
// count through after and before here; Decide and DecideNudge hold what
// falls on a quiet day (hold, nudgeDue).

// Quiet is a set of quiet UTC days: date ranges and weekdays. The zero
// value has none, and every clock counts calendar time.
type Quiet struct {
	spans    []daySpan // sorted, disjoint and not touching
	weekdays [7]bool   // by time.Weekday
	any      bool      // a weekday is quiet
}

// DayRange is the UTC days from First to Last, both included; their times
// of day are ignored.
type DayRange struct{ First, Last time.Time }

// daySpan is UTC day numbers (days since 1970-01-01) from, included, to
// to, excluded.
type daySpan struct{ from, to int64 }

// ErrEveryWeekday refuses a set of quiet weekdays that leaves no day for
// the clocks to count: nothing would ever fall due.
var ErrEveryWeekday = errors.New("every weekday is quiet: no clock would ever run")

// NewQuiet builds the quiet days of ranges and weekdays; overlapping and
// adjacent ranges merge. A range whose Last is before its First holds no
// day (config refuses it before it comes here).
func NewQuiet(ranges []DayRange, weekdays []time.Weekday) (Quiet, error) {
	var q Quiet
	for _, w := range weekdays {
		q.weekdays[w%7], q.any = true, true
	}
	if q.any {
		all := true
		for _, on := range q.weekdays {
			all = all && on
		}
		if all {
			return Quiet{}, ErrEveryWeekday
		}
	}
	spans := make([]daySpan, 0, len(ranges))
	for _, r := range ranges {
		if s := (daySpan{dayOf(r.First), dayOf(r.Last) + 1}); s.from < s.to {
			spans = append(spans, s)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	for _, s := range spans {
		if n := len(q.spans); n > 0 && s.from <= q.spans[n-1].to {
			q.spans[n-1].to = max(q.spans[n-1].to, s.to)
			continue
		}
		q.spans = append(q.spans, s)
	}
	return q, nil
}

// IsZero reports whether no day is quiet.
func (q Quiet) IsZero() bool { return !q.any && len(q.spans) == 0 }

// Paused reports whether t falls on a quiet day.
func (q Quiet) Paused(t time.Time) bool { return !q.IsZero() && q.quietDay(dayOf(t)) }

// Resume is the first instant at or after t that is not on a quiet day:
// t itself, or the start of the first day after the quiet days t is on.
func (q Quiet) Resume(t time.Time) time.Time {
	if !q.Paused(t) {
		return t
	}
	return dayStart(q.firstUnquiet(dayOf(t)))
}

// after is the first instant, not on a quiet day, by which d of unquiet
// time has passed since start.
func (q Quiet) after(start time.Time, d time.Duration) time.Time {
	if q.IsZero() {
		return start.Add(d)
	}
	t := q.Resume(start)
	for {
		next, ok := q.nextQuiet(dayOf(t) + 1)
		if !ok || d < dayStart(next).Sub(t) {
			return t.Add(d)
		}
		d -= dayStart(next).Sub(t)
		t = dayStart(q.firstUnquiet(next))
	}
}

// before is the earliest instant c from which exactly d of unquiet time
// passes until end: a PR last active before c has been inactive longer
// than d by end, one active at or after it has not.
func (q Quiet) before(end time.Time, d time.Duration) time.Time {
	if q.IsZero() {
		return end.Add(-d)
	}
	t := end
	for {
		// The unquiet stretch that ends at t begins at from.
		from, ok := t, true
		if !q.quietDay(dayOf(t.Add(-1))) {
			var last int64
			last, ok = q.lastQuiet(dayOf(t.Add(-1)))
			from = dayStart(last + 1)
		}
		if !ok || d < t.Sub(from) {
			return t.Add(-d)
		}
		d -= t.Sub(from)
		t = dayStart(q.firstQuietOfRun(dayOf(from.Add(-1))))
	}
}

// quietDay reports whether UTC day n is quiet.
func (q Quiet) quietDay(n int64) bool {
	if q.any && q.weekdays[weekdayOf(n)] {
		return true
	}
	_, in := q.spanOf(n)
	return in
}

// spanOf is the index of the first span ending after day n, and whether n
// is in it.
func (q Quiet) spanOf(n int64) (int, bool) {
	i := sort.Search(len(q.spans), func(i int) bool { return q.spans[i].to > n })
	return i, i < len(q.spans) && q.spans[i].from <= n
}

// firstUnquiet is the first day from n on that is not quiet. It ends: the
// spans are finite and NewQuiet refuses seven quiet weekdays.
func (q Quiet) firstUnquiet(n int64) int64 {
	for {
		if i, in := q.spanOf(n); in {
			n = q.spans[i].to
			continue
		}
		if q.any && q.weekdays[weekdayOf(n)] {
			n++
			continue
		}
		return n
	}
}

// firstQuietOfRun is the first day of the run of quiet days that ends
// with day n (n itself quiet).
func (q Quiet) firstQuietOfRun(n int64) int64 {
	for q.quietDay(n - 1) {
		n--
		if i, in := q.spanOf(n); in {
			n = q.spans[i].from
		}
	}
	return n
}

// nextQuiet is the first quiet day from n on; ok is false when none is.
func (q Quiet) nextQuiet(n int64) (day int64, ok bool) {
	if i, in := q.spanOf(n); in {
		return n, true
	} else if i < len(q.spans) {
		day, ok = q.spans[i].from, true
	}
	if q.any {
		for k := int64(0); k < 7; k++ {
			if q.weekdays[weekdayOf(n+k)] {
				if !ok || n+k < day {
					day, ok = n+k, true
				}
				break
			}
		}
	}
	return day, ok
}

// lastQuiet is the last quiet day up to n; ok is false when none is.
func (q Quiet) lastQuiet(n int64) (day int64, ok bool) {
	i, in := q.spanOf(n)
	if in {
		return n, true
	}
	if i > 0 {
		day, ok = q.spans[i-1].to-1, true
	}
	if q.any {
		for k := int64(0); k < 7; k++ {
			if q.weekdays[weekdayOf(n-k)] {
				if !ok || n-k > day {
					day, ok = n-k, true
				}
				break
			}
		}
	}
	return day, ok
}

const secondsPerDay = 24 * 60 * 60

// dayOf is the UTC day number of t.
func dayOf(t time.Time) int64 {
	s := t.Unix()
	if s < 0 && s%secondsPerDay != 0 {
		return s/secondsPerDay - 1
	}
	return s / secondsPerDay
}

// dayStart is the first instant of UTC day n.
func dayStart(n int64) time.Time { return time.Unix(n*secondsPerDay, 0).UTC() }

// weekdayOf is the weekday of UTC day n (day 0, 1970-01-01, was a Thursday).
func weekdayOf(n int64) time.Weekday { return time.Weekday(((n+4)%7 + 7) % 7) }

// ReasonQuiet is the reason of a mark, notice or close that a quiet period
// holds back.
const ReasonQuiet Reason = "quiet period"

// hold keeps a decision of Decide that would mark, post a notice or close
// when now is in a quiet period: the PR waits, its dates as they were. An
// un-stale goes on: a person acted, and is waiting for the label to go.
func (p Policy) hold(d Decision, now time.Time) Decision {
	switch d.Action {
	case Mark, Notify, Close:
		if p.Quiet.Paused(now) {
			d.Action, d.Reason, d.CloseNoticePosted = Keep, ReasonQuiet, false
		}
	}
	return d
}
