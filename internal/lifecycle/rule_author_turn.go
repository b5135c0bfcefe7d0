package lifecycle

import "time"

// RuleAuthorTurn is the stale clock under stale-clock: author-turn:
// only the author's turn ages (turn.go).
const RuleAuthorTurn RuleName = "author-turn"

// authorTurnRule is the stale clock under stale-clock: author-turn: only
// time on the author's turn counts (turn.go), and only the author's answer
// un-stales.
var authorTurnRule = Rule{
	Name:  RuleAuthorTurn,
	Needs: authorTurnNeeds,

	Decide: func(f Facts) (Decision, bool) {
		if f.Policy.StaleClock != ClockAuthorTurn {
			return Decision{}, false
		}
		return authorTurnClock.decide(f), true
	},
	Words:  authorTurnWords,
	Closes: func(p Policy) bool { return p.StaleClock == ClockAuthorTurn && p.DaysBeforeClose >= 0 },
}

// authorTurnWords say whose turn it is and since when, where "no activity"
// would be false: a maintainer's comment may have come since the mark, and
// only the author's answer counts.
var authorTurnWords = []Word{
	{TextStale, ReasonWaitingOnAuthor, false, DefaultStaleAuthorTurn},
	{TextStale, ReasonWaitingOnAuthor, true, DefaultStaleAuthorTurnNoClose},
	{TextStale, ReasonNoticeMissing, false, DefaultStaleAuthorTurn},
	{TextStale, ReasonNoticeMissing, true, DefaultStaleAuthorTurnNoClose},
	{TextClose, ReasonCloseDueAuthorTurn, false, DefaultCloseAuthorTurn},
	{TextClose, ReasonCloseDueSincePerson, false, DefaultCloseAuthorTurn},
	{TextClose, ReasonWaitingOnAuthor, false, DefaultCloseNowAuthorTurn},
}

// DefaultStaleAuthorTurn replaces DefaultStale under stale-clock
// author-turn: it says whose turn it is, since when and after whom, and
// what hands it back; DefaultCloseAuthorTurn and DefaultCloseNowAuthorTurn
// replace DefaultClose and DefaultCloseNow.
const (
	DefaultStaleAuthorTurn = staleAuthorTurn + "; otherwise it will be closed on {{close-date}}."
	// DefaultStaleAuthorTurnNoClose is DefaultStaleAuthorTurn on a PR
	// that is never closed.
	DefaultStaleAuthorTurnNoClose = staleAuthorTurn + ". It will not be closed for being stale."
	DefaultCloseAuthorTurn        = "Closing this pull request: it stayed marked `{{stale-label}}` for {{days-before-close}} days, waiting {{waiting-on-author}}. " + thanks
	DefaultCloseNowAuthorTurn     = "Closing this pull request: it has been waiting {{waiting-on-author}}. " + thanks
)

const staleAuthorTurn = "This pull request has been waiting {{waiting-on-author}}, so it is now marked `{{stale-label}}`.\n\n" +
	"A push, a reply or a re-requested review hands it back to the reviewers and takes the label off"

var authorTurnClock = staleClock{fresh: turnFresh, stale: turnStale, due: ReasonCloseDueAuthorTurn,
	waiting: func(Policy) Reason { return ReasonWaitingOnAuthor },
	missing: func(Policy) Reason { return ReasonNoticeMissing },
	// A notice posted late counts from the author's turn, as the mark did.
	told: func(f Facts) time.Time { return authorClock(f.Act) }}

// turnFresh applies the author-turn clock to an unlabelled PR whose last
// activity the inactivity rules put at last. done reports a decision;
// otherwise since is the time the author's turn began.
func turnFresh(f Facts, cutoff, last time.Time) (d Decision, since time.Time, done bool) {
	pr, act := f.PR, f.Act
	known := act != nil && act.Turn.Whose != TurnUnknown
	if !pr.CreatedAt.Before(cutoff) {
		// The turn is no older than the PR. Its clock, when read, is what
		// the mark counts from (Next dates it), not the opening.
		since := pr.CreatedAt
		if known && act.Turn.Whose == TurnAuthor {
			since = authorClock(act)
		}
		return Decision{Action: Keep, Reason: ReasonActive, InactiveSince: since}, last, true
	}
	if !known {
		return Decision{Action: NeedDetail, Reason: ReasonActive}, last, true
	}
	switch act.Turn.Whose {
	case TurnReviewers:
		return Decision{Action: Keep, Reason: ReasonReviewersTurn, InactiveSince: act.Turn.Since}, last, true
	case TurnMaintainers:
		return Decision{Action: Keep, Reason: ReasonMaintainersTurn, InactiveSince: act.Turn.Since}, last, true
	}
	return Decision{}, authorClock(act), false
}

// authorClock is when the author's turn's clock started.
func authorClock(act *Activity) time.Time {
	clock := act.Turn.ClockFrom()
	if act.LastPersonLogin == "" && act.LastPersonAt.After(clock) {
		// An update nothing explains (see explain): in doubt, the author's.
		clock = act.LastPersonAt
	}
	return clock
}

// turnStale applies the author-turn clock to a stale-labelled PR: it is
// un-staled once the author acted after the mark (or it is on anyone else's
// turn), and otherwise only an update nothing explains postpones the close
// (without un-staling: the next run would mark it again at once): a third
// person's "+1" or a maintainer's ping does not. A turn not read asks for
// the timeline.
func turnStale(f Facts, personSince bool) (d Decision, postpones, done bool) {
	act := f.Act
	t := act.Turn
	unstale := func(why Reason) (Decision, bool, bool) {
		return Decision{Action: Unstale, Reason: why, InactiveSince: t.Since, MarkedAt: act.MarkedAt}, false, true
	}
	switch {
	case t.Whose == TurnUnknown:
		return Decision{Action: NeedDetail, Reason: ReasonStaleWaiting}, false, true
	case act.AuthorPushedAfterMark || !act.MarkedAt.IsZero() && t.AuthorAt.Sub(act.MarkedAt) > 0:
		return unstale(ReasonAuthorActed)
	case t.Whose == TurnReviewers:
		return unstale(ReasonNotAuthorsTurn)
	case t.Whose == TurnMaintainers:
		return unstale(ReasonNotAuthorsToMerge)
	}
	return Decision{}, personSince && act.LastPersonLogin == "", false
}

// authorTurnNeeds: the turn, which only each PR's timeline tells, and the
// open listing read to its end (a bot's comment moves updated_at without
// changing the turn).
func authorTurnNeeds(p Policy, now time.Time, n *Needs) {
	if p.StaleClock != ClockAuthorTurn {
		return
	}
	n.Turn = true
	if staleNeeds(p, now, n) {
		n.ReadAll = true
	}
}
