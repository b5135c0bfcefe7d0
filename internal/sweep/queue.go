package sweep

import (
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// QueueState is where an open PR stands after the run, as the queue views
// (the job summary's histogram and next 14 days, the dashboard issue) group
// it.
type QueueState int

const (
	QueueFresh   QueueState = iota // not stale: Due is when it will be marked
	QueueStale                     // carries the stale label: Due is when it closes
	QueueRevived                   // un-staled by this run: a person acted after the mark
	QueueExempt                    // exempt or filtered out: nothing falls due
)

// QueueItem is one open PR the run looked at, with the facts the queue
// views need. They come from the listing and the decision the run made
// anyway: no request is spent on them.
type QueueItem struct {
	Number int
	Title  string // untrusted: sanitise before printing
	URL    string
	State  QueueState
	// Since is when the PR entered its state: its last activity (fresh,
	// revived) or its mark (stale); zero when unknown (a stale PR whose
	// activity the run did not read).
	Since time.Time
	// LastActivity is the last activity the run knows of: the decision's,
	// or the listing's updated_at (created_at under ignore-updates) when
	// no decision needed more.
	LastActivity time.Time
	// Due is when the next step falls due: the mark of a fresh or revived
	// PR, the close of a stale one; zero when nothing will (exempt, marking
	// or closing disabled) or the run could not tell (detail not read).
	// It may lie in the past: a step the run did not reach. Under
	// stale-clock: author-turn only a PR on its author's turn has a mark
	// due.
	Due time.Time
	// Turn is whose turn the PR is on and TurnSince since when, when the
	// policy uses turns and the run read the PR's timeline (TurnUnknown
	// otherwise: the turn is in the timeline only).
	Turn      lifecycle.Whose
	TurnSince time.Time
	// Nudged: this run nudged the PR's reviewers (or would have, in a dry
	// run). NudgedAt is the latest nudge of this turn of the reviewers'
	// (this run's or an earlier one's); zero when none. NudgeDue is when
	// they get nudged if the turn does not pass; zero when they will not be
	// in this turn (or the run could not tell). It may lie in the past: a
	// nudge the run did not reach.
	Nudged   bool
	NudgedAt time.Time
	NudgeDue time.Time
}

// queue collects the QueueItems of a run, one per PR, in listing order; a
// later decision about a PR replaces an earlier one.
type queue struct {
	items []QueueItem
	at    map[int]int // PR number -> index in items
}

// enqueue records a PR as the listing shows it, and counts it considered;
// a PR listed again (its newer copy, see listOpen) replaces its row.
func (s *sweeper) enqueue(pr lifecycle.PR) {
	if s.q.at == nil {
		s.q.at = map[int]int{}
	}
	i, again := s.q.at[pr.Number]
	if !again {
		s.res.Considered++
		i = len(s.q.items)
		s.q.items = append(s.q.items, QueueItem{})
	}
	last := pr.UpdatedAt
	if s.pol.IgnoreUpdates {
		last = pr.CreatedAt
	}
	it := QueueItem{Number: pr.Number, Title: pr.Title, URL: pr.URL, State: QueueFresh, LastActivity: last}
	if pr.HasLabel(s.pol.StaleLabel) {
		it.State = QueueStale
	} else {
		it.Since = last
	}
	s.q.at[pr.Number] = i
	s.q.items[i] = it
}

// settle records a decision about a PR before any write: the state it is
// in now and when its next step falls due: lifecycle.Next's date, or, for
// a step this run takes, when it fell due (a date the run may not reach).
func (s *sweeper) settle(pr lifecycle.PR, act *lifecycle.Activity, d lifecycle.Decision) {
	it := s.queued(pr.Number)
	if it == nil {
		return
	}
	var due time.Time
	switch d.Action {
	case lifecycle.Mark:
		due = s.pol.MarkDate(d.InactiveSince)
	case lifecycle.Close:
		due = d.CloseAt
	default:
		due = lifecycle.Next(pr, act, d, s.now, s.pol).At
	}
	stale := pr.HasLabel(s.pol.StaleLabel)
	switch {
	case d.Action == lifecycle.Skip:
		it.State, it.Due = QueueExempt, time.Time{}
	case d.Action == lifecycle.NeedDetail:
		it.Due = time.Time{} // the run did not learn enough to tell
	case stale && d.Action != lifecycle.Unstale:
		it.State, it.Since, it.Due = QueueStale, d.MarkedAt, due
		it.LastActivity = s.beforeMark(d.MarkedAt)
		return
	default:
		it.State, it.Since, it.Due = QueueFresh, d.InactiveSince, due
	}
	if !d.InactiveSince.IsZero() {
		it.LastActivity = d.InactiveSince
	}
}

// beforeMark is a stale PR's last activity as far as the queue views go:
// its updated_at and the decision's clock are the mark itself, and a mark
// comes after days-before-stale days without activity.
func (s *sweeper) beforeMark(markedAt time.Time) time.Time {
	cutoff, ok := s.pol.StaleCutoff(markedAt)
	if markedAt.IsZero() || !ok {
		return markedAt
	}
	return cutoff
}

// acted records a write done (or, in a dry run, one that would be): the
// state the PR is in after it.
func (s *sweeper) acted(o op) {
	it := s.queued(o.pr.Number)
	if it == nil {
		return
	}
	// The step after the write: lifecycle.Next decides it on the facts
	// the write leaves.
	next := func() time.Time { return lifecycle.Next(o.pr, o.act, o.d, s.now, s.pol).At }
	switch o.out {
	case Marked:
		it.State, it.Since, it.Due = QueueStale, o.d.MarkedAt, next()
	case Notified:
		it.State, it.Since, it.Due = QueueStale, o.d.MarkedAt, next()
		it.LastActivity = s.beforeMark(o.d.MarkedAt)
	case Unstaled:
		it.State, it.Since, it.Due = QueueRevived, o.d.InactiveSince, next()
		it.LastActivity = o.d.InactiveSince
	case Nudged:
		it.Nudged, it.NudgedAt, it.NudgeDue = true, s.now, time.Time{}
	case Closed:
		// Closed (or converted to a draft without the label): out of the
		// queue of PRs waiting on something.
		delete(s.q.at, o.pr.Number)
	}
}

// queueItems is the run's queue: every PR listed open, less those it closed.
func (s *sweeper) queueItems() []QueueItem {
	out := make([]QueueItem, 0, len(s.q.at))
	for i, it := range s.q.items {
		if j, ok := s.q.at[it.Number]; ok && j == i {
			out = append(out, it)
		}
	}
	return out
}

// queued is the QueueItem of a PR listed open by this run, or nil.
func (s *sweeper) queued(number int) *QueueItem {
	i, ok := s.q.at[number]
	if !ok {
		return nil
	}
	return &s.q.items[i]
}

// markDue is when a PR last active at last gets marked; zero when never.
// A mark a quiet period holds is due at its end.
func (s *sweeper) markDue(last time.Time) time.Time {
	return s.pol.Due(s.pol.MarkDate(last), s.now)
}
