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
	QueueIntake                    // held by the intake clock: Since is its notice (zero before it), Due when it closes
)

// QueueItem is one open PR the run looked at, with the facts the queue
// views need. They come from the listing and the decision the run made
// anyway: no request is spent on them.
type QueueItem struct {
	Number int
	Title  string // untrusted: sanitise before printing
	URL    string
	State  QueueState
	// Author is who the PR comes from: a person, a first-time
	// contributor, a coding agent, another bot.
	Author lifecycle.AuthorClass
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
	// Rerequested are the reviewers whose review this run requested again
	// (or would have, in a dry run): the author answered their change
	// request (rerequest-reviewers-on-answer).
	Rerequested []string
	// EscalatedAt is this turn's review escalation of the reviewers'
	// (this run's, or would be in a dry run, or an earlier run's); zero
	// when none. Escalate: the escalation is due with nobody to ask
	// (escalation-reviewers empty): the dashboard lists it, since when it
	// was due (EscalationDue). Otherwise EscalationDue is when the
	// escalation is posted if the turn does not pass; zero when it will
	// not be in this turn (or the run could not tell). It may lie in the
	// past: an escalation the run did not reach, or one escalations-per-run
	// left for a later run: EscalationWaits is which at this pace (1: the
	// next), 0 for none held back.
	EscalatedAt     time.Time
	Escalate        bool
	EscalationDue   time.Time
	EscalationWaits int
	// Away are the reviewers the PR waits on whom its nudge and escalation
	// do not ask, listed in away-reviewers; Busy those whose GitHub status
	// says busy (as this run read it: only for the PRs it had a nudge or
	// an escalation to decide for). On the reviewers' turn only.
	Away, Busy []string
}

// book records where each open PR the run listed stands, from the
// listing and the decisions the run makes anyway: the queue views' facts
// (Result.Queue) and the PRs a quiet period holds. It reads and writes
// nothing: the listing and the decide stage feed it values.
type book struct {
	pol   lifecycle.Policy
	now   time.Time
	turns bool // the policy reads turns: a decided PR's turn is recorded
	quiet bool // the run falls in a quiet period: held decisions are counted

	items      []QueueItem
	at         map[int]int  // PR number -> index in items
	held       map[int]bool // per PR: its latest decision is held by the quiet period
	considered int          // PRs listed, each once
}

func newBook(pol lifecycle.Policy, now time.Time, turns bool) *book {
	return &book{pol: pol, now: now, turns: turns, quiet: pol.Quiet.Paused(now), at: map[int]int{}, held: map[int]bool{}}
}

// listed records a PR as the listing shows it; a PR listed again (its
// newer copy, see listOpen) replaces its row.
func (b *book) listed(pr lifecycle.PR) {
	i, again := b.at[pr.Number]
	if !again {
		b.considered++
		i = len(b.items)
		b.items = append(b.items, QueueItem{})
	}
	last := pr.UpdatedAt
	if b.pol.IgnoreUpdates {
		last = pr.CreatedAt
	}
	it := QueueItem{Number: pr.Number, Title: pr.Title, URL: pr.URL, State: QueueFresh, LastActivity: last,
		Author: b.pol.ClassOf(pr)}
	if pr.HasLabel(b.pol.StaleLabel) {
		it.State = QueueStale
	} else {
		it.Since = last
	}
	b.at[pr.Number] = i
	b.items[i] = it
}

// decided records a decision about a PR before any write: whether a quiet
// period holds it (a PR decided twice, from the listing and then from its
// timeline, counts as its last decision says), its turn, the state it is
// in now and when its next step falls due: lifecycle.Next's date, or, for a
// step this run takes, when it fell due (a date the run may not reach).
func (b *book) decided(p planned) {
	if b.quiet {
		b.held[p.pr.Number] = p.d.Reason == lifecycle.ReasonQuiet
	}
	it := b.queued(p.pr.Number)
	if it == nil {
		return
	}
	b.turn(it, p)
	pr, d := p.pr, p.d
	var due time.Time
	switch d.Action {
	case lifecycle.Mark, lifecycle.Close:
		due = d.DueAt
	default:
		due = lifecycle.Next(pr, p.act, d, b.now, b.pol).At
	}
	stale := pr.HasLabel(b.pol.StaleLabel)
	switch {
	case d.Action == lifecycle.Skip:
		it.State, it.Due = QueueExempt, time.Time{}
	case d.Action == lifecycle.NeedDetail:
		it.Due = time.Time{} // the run did not learn enough to tell
	case ownClock(d.Rule) && d.Action != lifecycle.Close:
		it.State, it.Since, it.Due = QueueIntake, d.InactiveSince, due
	case stale && d.Action != lifecycle.Unstale:
		it.State, it.Since, it.Due = QueueStale, d.MarkedAt, due
		it.LastActivity = b.beforeMark(pr, d.MarkedAt)
		return
	default:
		it.State, it.Since, it.Due = QueueFresh, d.InactiveSince, due
	}
	if !d.InactiveSince.IsZero() {
		it.LastActivity = d.InactiveSince
	}
}

// ownClock reports whether the rule named holds the PRs it decides on a
// clock of its own (the intake clock's): not the stale clocks' states.
func ownClock(name lifecycle.RuleName) bool {
	r, _ := lifecycle.RuleNamed(name)
	return r.OwnClock()
}

// turn records the turn of a PR whose timeline the run read, when the
// policy reads turns (otherwise only some PRs' turns are known, by chance).
func (b *book) turn(it *QueueItem, p planned) {
	if !b.turns || p.act == nil || p.act.Turn.Whose == lifecycle.TurnUnknown {
		return
	}
	t := p.act.Turn
	// Since when the clock counts (the author's last action on a draft
	// they keep working on): what the notice says too.
	it.Turn, it.TurnSince = t.Whose, t.ClockFrom()
	if t.NudgedInTurn() {
		it.NudgedAt = t.NudgedAt // nudged in this turn already, by an earlier run
	}
	it.NudgeDue = b.nudgeDue(p.pr, p.act)
	if t.EscalatedInTurn() {
		it.EscalatedAt = t.EscalatedAt
	}
	if t.Whose == lifecycle.TurnReviewers {
		_, it.Away, it.Busy = b.pol.Available(p.pr, p.act, b.now)
	}
	switch p.escalate {
	case lifecycle.EscalateListed:
		// Due after the nudge, or at once when every reviewer was away and
		// none was posted (its NudgedAt is zero).
		it.Escalate, it.EscalationDue = true, lifecycle.EscalationDue(p.pr, p.act, b.now, b.pol)
	case lifecycle.EscalatePost:
		it.EscalationDue = lifecycle.EscalationDue(p.pr, p.act, b.now, b.pol) // this run's, if it reaches it
	default:
		it.EscalationDue = b.escalationDue(p.pr, p.act)
	}
}

// escalationDue is when the review of a PR is escalated if its turn does
// not pass: after its nudge, or when every reviewer it waits on is away or
// busy; zero when it will not be (escalation off, not due on a known date,
// escalated in this turn already, nobody to ask then). DecideEscalation
// asked at that time answers by the same rules the escalation follows.
func (b *book) escalationDue(pr lifecycle.PR, act *lifecycle.Activity) time.Time {
	due := lifecycle.EscalationDue(pr, act, b.now, b.pol)
	if b.pol.DaysBeforeEscalation < 0 || due.IsZero() {
		return time.Time{}
	}
	due = b.pol.Due(due, b.now)
	if lifecycle.DecideEscalation(pr, act, lifecycle.Later(due, b.now), b.pol) != lifecycle.EscalatePost {
		return time.Time{}
	}
	return due
}

// escalationWaits records an escalation due that escalations-per-run left
// for a later run: run is which at this pace (1: the next).
func (b *book) escalationWaits(o op, run int) {
	if it := b.queued(o.pr.Number); it != nil {
		it.EscalationWaits = run
	}
}

// nudgeDue is when the reviewers of a PR get nudged if its turn does not
// pass; zero when they will not be (nudge off, not their turn, nudged in it
// already, exempt). DecideNudge asked at that time answers by the same
// rules the nudge itself follows.
func (b *book) nudgeDue(pr lifecycle.PR, act *lifecycle.Activity) time.Time {
	if b.pol.DaysBeforeReviewNudge < 0 || !act.Turn.Nudged() {
		return time.Time{}
	}
	due := b.pol.Due(b.pol.NudgeDate(act.Turn.NudgeFrom()), b.now)
	if lifecycle.DecideNudge(pr, act, lifecycle.Later(due, b.now), b.pol) != lifecycle.NudgePost {
		return time.Time{}
	}
	return due
}

// beforeMark is a stale PR's last activity as far as the queue views go:
// its updated_at and the decision's clock are the mark itself, and a mark
// comes after days-before-stale days without activity (on the PR's own
// clock: an agent's may differ).
func (b *book) beforeMark(pr lifecycle.PR, markedAt time.Time) time.Time {
	cutoff, ok := b.pol.For(pr).StaleCutoff(markedAt)
	if markedAt.IsZero() || !ok {
		return markedAt
	}
	return cutoff
}

// acted records a write done (or, in a dry run, one that would be): the
// state the PR is in after it.
func (b *book) acted(o op) {
	it := b.queued(o.pr.Number)
	if it == nil {
		return
	}
	// The step after the write: lifecycle.Next decides it on the facts
	// the write leaves.
	next := func() time.Time { return lifecycle.Next(o.pr, o.act, o.d, b.now, b.pol).At }
	switch o.out {
	case Marked:
		it.State, it.Since, it.Due = QueueStale, o.d.MarkedAt, next()
	case Notified:
		it.State, it.Since, it.Due = QueueStale, o.d.MarkedAt, next()
		it.LastActivity = b.beforeMark(o.pr, o.d.MarkedAt)
	case IntakeNotified:
		it.State, it.Since, it.Due = QueueIntake, b.now, next()
	case Unstaled:
		it.State, it.Since, it.Due = QueueRevived, o.d.InactiveSince, next()
		it.LastActivity = o.d.InactiveSince
	case Nudged:
		it.Nudged, it.NudgedAt, it.NudgeDue = true, b.now, time.Time{}
		if o.act != nil && b.turns {
			// The escalation counts from this nudge, if nobody answers it.
			act := *o.act
			act.Turn.NudgedAt = b.now
			it.EscalationDue = b.escalationDue(o.pr, &act)
		}
	case Rerequested:
		it.Rerequested = o.reviewers
	case Escalated:
		it.EscalatedAt, it.EscalationDue = b.now, time.Time{}
	case Closed:
		// Closed (or converted to a draft without the label): out of the
		// queue of PRs waiting on something.
		delete(b.at, o.pr.Number)
	}
}

// queue is the run's queue: every PR listed open, less those it closed.
func (b *book) queue() []QueueItem {
	out := make([]QueueItem, 0, len(b.at))
	for i, it := range b.items {
		if j, ok := b.at[it.Number]; ok && j == i {
			out = append(out, it)
		}
	}
	return out
}

// queued is the QueueItem of a PR listed open by this run, or nil.
func (b *book) queued(number int) *QueueItem {
	i, ok := b.at[number]
	if !ok {
		return nil
	}
	return &b.items[i]
}

// heldCount is how many PRs the run held for a quiet period's end.
func (b *book) heldCount() int {
	n := 0
	for _, h := range b.held {
		if h {
			n++
		}
	}
	return n
}

// markDue is when a PR last active at last gets marked, on the soonest
// clock (an agent's PR may run on its own); zero when never.
// A mark a quiet period holds is due at its end.
func (b *book) markDue(last time.Time) time.Time {
	return b.pol.Due(b.pol.FirstMarkDate(last), b.now)
}
