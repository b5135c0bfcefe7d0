package lifecycle

import (
	"strings"
	"time"
)

// ReopenNotice is our comment on a pull request the closure audit reopens
// (notice.ReopenMarker): it makes the reopening happen once per PR. Its
// value stands apart from activity.go's list of notices, so that list can
// grow without the two meeting.
const ReopenNotice Notice = 64

// CloseKind is how a close shows it was a stale bot's.
type CloseKind int

const (
	NotStaleClose    CloseKind = iota // a person's or a merge's close, as far as the history tells
	ClosedWithLabel                   // close-pr-label was on at the close (or put on with it)
	ClosedByStalepr                   // our closing comment (its marker, from our own login), then the close
	ClosedByStaleBot                  // a bot's close with the stale label on (actions/stale's shape, with its comment or without)
)

func (k CloseKind) String() string {
	switch k {
	case ClosedWithLabel:
		return "close-pr-label"
	case ClosedByStalepr:
		return "stalepr"
	case ClosedByStaleBot:
		return "stale bot"
	}
	return "not a stale close"
}

// AuditPolicy is what the closure audit reads of the configuration: the
// labels a stale bot's close leaves, the logins stalepr writes as (only
// their markers are trusted), and the turn's rules (Turn: bots, reviewers,
// the labels that put a PR on its author's turn, failing checks): the
// audit judges a close by the rules the sweep would have applied, so it
// never calls wrong a close the sweep itself would have made.
type AuditPolicy struct {
	StaleLabel string
	CloseLabel string // "": no label counts
	Self       []string
	Turn       Options
	// RuleOn tells the rules on now (Policy.RuleOn): our own close by one
	// of them is the sweep's own, trusted, not replayed. nil trusts none.
	RuleOn func(RuleName) bool
}

// Audit is a closed PR's last close, replayed.
type Audit struct {
	Kind     CloseKind
	ClosedAt time.Time
	ClosedBy string // the close's actor; "" when GitHub does not tell
	ByAuthor bool   // its author closed it
	// Rule is the rule that closed the PR as our closing comment's marker
	// records it: "" when the close is not ours or the marker is an
	// earlier version's, which records none.
	Rule RuleName
	// Trusted: our own login closed the PR after our closing comment, by a
	// rule on now (AuditPolicy.RuleOn): the sweep would make that close
	// today, so it is not replayed and never wrong. Other bots' closes, and
	// ours with no rule recorded, one unknown or one off now, are replayed.
	Trusted bool
	// Turn is whose turn it was just before the close: the history up to
	// it, folded by Summarize (zero when Trusted).
	Turn Turn
	// Reopened: we reopened this PR once already (our reopen comment, then
	// a reopening): it is never audited again.
	Reopened bool
	// ReopenPostedAt is our reopen comment after this close, with no
	// reopening yet: a run stopped between the two writes.
	ReopenPostedAt time.Time
	// ChecksKnown: the PR's checks read since the close tell what they
	// were at it (the rollup of its head, complete, nothing re-run since).
	ChecksKnown bool
	// HumanOfRecord is, on a coding agent's PR, the person who answers for
	// it as the history up to the close names them
	// (Activity.HumanOfRecord): the reopen comment addresses them, as the
	// stale notices do, never the agent.
	HumanOfRecord string
}

// Wrong reports whether a stale bot closed the PR while it waited on its
// reviewers or its maintainers.
func (a Audit) Wrong() bool {
	return a.Kind != NotStaleClose && !a.Reopened && !a.Trusted &&
		(a.Turn.Whose == TurnReviewers || a.Turn.Whose == TurnMaintainers)
}

// closeLabelSlack is how long after a close its label may come and still
// be the close's: actions/stale labels after closing, seconds apart.
const closeLabelSlack = foreignNoticeWindow

// AuditClose replays a closed PR's history (its whole timeline, any
// order) up to its last close: how that close shows a stale bot's, and
// whose turn it was then. The events before the close are folded by
// Summarize, with no updated_at to explain: what came after the close
// (the close's own label, later comments) never changes the turn.
func AuditClose(pr PR, events []Event, p AuditPolicy) Audit {
	w := who{self: p.Self}
	sorted := w.trustedHistory(events)
	ci := lastClose(sorted)
	if ci < 0 {
		return Audit{}
	}
	c := sorted[ci]
	a := Audit{ClosedAt: c.At, ClosedBy: c.Actor, ByAuthor: c.Actor != "" && strings.EqualFold(c.Actor, pr.Author)}
	a.Reopened, a.ReopenPostedAt = ourReopen(sorted, c.At)
	if a.Reopened {
		return a
	}
	a.Kind = closeKind(pr, sorted, ci, p, w)
	if a.Kind == ClosedByStalepr {
		a.Rule = closeRule(sorted, ci)
		// Only a close by our own login is the rule's: a person's after
		// our comment (a run stopped in between) is replayed as before.
		a.Trusted = w.isSelf(c.Actor) && p.RuleOn != nil && p.RuleOn(a.Rule)
	}
	if a.Trusted {
		return a
	}
	before := pr
	before.UpdatedAt = time.Time{} // nothing after the close to explain
	before.Checks = checksAt(pr.Checks, c.At)
	a.ChecksKnown = before.Checks.Complete && before.Checks.Commit != "" && strings.EqualFold(before.Checks.Commit, pr.HeadSHA)
	o := p.Turn
	o.Self = p.Self
	act := SummarizeWith(before, sorted[:ci], p.StaleLabel, o)
	a.Turn, a.HumanOfRecord = act.Turn, act.HumanOfRecord
	return a
}

// checksAt is what the checks read since a close said at the close: the
// contexts completed by then. One completed after it (a re-run) hides
// what it repeated, so the rollup is no longer complete: unknown, it puts
// nobody on a turn.
func checksAt(c Checks, closedAt time.Time) Checks {
	at := Checks{Commit: c.Commit, Complete: c.Complete}
	for _, x := range c.Contexts {
		if x.At.After(closedAt) {
			at.Complete = false
			continue
		}
		at.Contexts = append(at.Contexts, x)
	}
	return at
}

// lastClose is the index of the last close; -1 when there is none.
func lastClose(sorted []Event) int {
	for i := len(sorted) - 1; i >= 0; i-- {
		if sorted[i].Kind == Closed {
			return i
		}
	}
	return -1
}

// ourReopen finds our reopen comments: one followed by a reopening means
// we reopened the PR once (done for good); one after the last close with
// none after it is a reopening a stopped run left to finish.
func ourReopen(sorted []Event, closedAt time.Time) (done bool, pending time.Time) {
	var marker time.Time
	for _, e := range sorted {
		switch {
		case e.Kind == Commented && e.Notice == ReopenNotice:
			marker = e.At
		case e.Kind == Reopened && !marker.IsZero():
			return true, time.Time{}
		}
	}
	if !marker.Before(closedAt) {
		return false, marker
	}
	return false, time.Time{}
}

// closeKind says how the close at sorted[ci] shows a stale bot's.
func closeKind(pr PR, sorted []Event, ci int, p AuditPolicy, w who) CloseKind {
	c := sorted[ci]
	since := lastReopenBefore(sorted, ci)
	var ourNotice bool
	for _, e := range sorted[since:ci] {
		if e.Kind == Commented && e.Notice == CloseNotice {
			ourNotice = true // trusted: from our own login
		}
	}
	bot := w.isBot(c)
	switch {
	case ourNotice:
		return ClosedByStalepr
	case bot && labelOnAt(sorted, ci, p.StaleLabel, 0):
		// A bot closing with the stale label on is a stale bot, with its
		// own comment or without (actions/stale with no close-pr-message,
		// GitHub's starter workflow, closes with a bare PATCH).
		return ClosedByStaleBot
	case p.CloseLabel == "" || !closeLabelOn(pr, sorted, ci, p.CloseLabel):
		return NotStaleClose
	case bot || labelledSince(sorted, since, ci, p.CloseLabel):
		return ClosedWithLabel
	}
	// A person's close with close-pr-label lingering from a close before
	// the last reopening: a maintainer's deliberate close, not audited.
	return NotStaleClose
}

// closeRule is the rule our last closing comment before the close at
// sorted[ci] (since the reopening before it) records; "" when none does.
func closeRule(sorted []Event, ci int) RuleName {
	since := lastReopenBefore(sorted, ci)
	for i := ci - 1; i >= since; i-- {
		if e := sorted[i]; e.Kind == Commented && e.Notice == CloseNotice {
			return e.Rule // trusted: from our own login
		}
	}
	return ""
}

// lastReopenBefore is the index just after the last reopening before ci (0
// when none): what came before it belongs to an earlier close.
func lastReopenBefore(sorted []Event, ci int) int {
	for i := ci - 1; i >= 0; i-- {
		if sorted[i].Kind == Reopened {
			return i + 1
		}
	}
	return 0
}

// labelOnAt reports whether label was on the PR at the close sorted[ci],
// counting changes up to slack after it (the close's own label).
func labelOnAt(sorted []Event, ci int, label string, slack time.Duration) bool {
	on, until := false, sorted[ci].At.Add(slack)
	for i, e := range sorted {
		if i > ci && e.At.After(until) {
			break
		}
		if !strings.EqualFold(e.Label, label) {
			continue
		}
		switch e.Kind {
		case Labeled:
			on = true
		case Unlabeled:
			on = i > ci && on // taken off after the close: it was on at it
		}
	}
	return on
}

// labelledSince reports whether label was added after sorted[since] and by
// the close at sorted[ci] (closeLabelSlack after it), or the history never
// shows it added (older than the timeline reaches: the listing's word): put
// on with that close, not left from an earlier one.
func labelledSince(sorted []Event, since, ci int, label string) bool {
	shown := false
	for i, e := range sorted {
		if e.Kind != Labeled || !strings.EqualFold(e.Label, label) {
			continue
		}
		shown = true
		if i >= since && !e.At.After(sorted[ci].At.Add(closeLabelSlack)) {
			return true
		}
	}
	return !shown
}

// closeLabelOn reports whether close-pr-label was on at the close, or put on with it.
// A history that never shows the label (older than the timeline reaches)
// takes the listing's word.
func closeLabelOn(pr PR, sorted []Event, ci int, label string) bool {
	for _, e := range sorted {
		if isLabelChange(e) && strings.EqualFold(e.Label, label) {
			return labelOnAt(sorted, ci, label, closeLabelSlack)
		}
	}
	return pr.HasLabel(label)
}
