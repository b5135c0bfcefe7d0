package lifecycle

import (
	"fmt"
	"strings"
	"time"
)

// Whose names the party a PR waits on.
type Whose int

const (
	TurnUnknown     Whose = iota // not read
	TurnReviewers                // opened, marked ready, or the author acted last
	TurnAuthor                   // a maintainer acted after the author, or a draft
	TurnMaintainers              // approved, no change request standing: theirs to merge
)

func (w Whose) String() string {
	switch w {
	case TurnUnknown:
		return "unknown"
	case TurnReviewers:
		return "reviewers"
	case TurnAuthor:
		return "author"
	case TurnMaintainers:
		return "maintainers"
	}
	return fmt.Sprintf("whose(%d)", int(w))
}

// Turn is whose turn a PR is on, and since when.
type Turn struct {
	Whose Whose
	Since time.Time // when the turn passed to Whose
	// By is the maintainer whose review or comment passed the turn to the
	// author ("" when a draft did); ByReview says it was a review.
	By       string
	ByReview bool
	// AuthorAt is the author's last action that counts for the turn; zero
	// when none is seen.
	AuthorAt time.Time
	// NudgedAt is our latest review nudge; zero when none.
	NudgedAt time.Time
}

// IsMaintainer reports whether GitHub's author_association makes an
// account a maintainer: the repository's owner, a member of its
// organisation, or a collaborator.
func IsMaintainer(association string) bool {
	switch strings.ToUpper(association) {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// turnFold reads whose turn a PR is on from its timeline (Summarize fills
// Activity.Turn with it). The rules:
//   - the reviewers' turn from when the PR is opened or marked ready;
//   - the author's when a maintainer (IsMaintainer) acts after the
//     author's last action: a review that requests changes or comments, an
//     issue or review comment; and from when the PR became a draft;
//   - the reviewers' again when the author acts: a push of their own
//     commits (not a bot's), a comment, a reply to a review, a re-requested
//     review, marking the draft ready;
//   - the maintainers' (to merge) while an approval stands and no
//     maintainer's latest review requests changes, unless it is a draft.
//
// Third persons (no maintainer association), bots and stalepr never change
// the turn. On a maintainer's own PR the author's actions are the author's
// and the other maintainers are the reviewers. A dismissed review passes
// nothing: it was withdrawn.
type turnFold struct {
	w      who
	author string
	draft  bool
	base   Whose             // the turn as actions pass it, before drafts and approvals
	latest map[string]string // each maintainer's latest review that is not a comment
	t      Turn
}

func newTurnFold(pr PR, sorted []Event, w who) turnFold {
	f := turnFold{
		w: w, author: pr.Author, draft: openedAsDraft(pr, sorted),
		base: TurnReviewers, latest: map[string]string{},
		t: Turn{Whose: TurnReviewers, Since: pr.CreatedAt},
	}
	f.settle(pr.CreatedAt, "", false)
	return f
}

// openedAsDraft: the first change of draft state tells how the PR was
// opened; without one, it is as the listing says.
func openedAsDraft(pr PR, sorted []Event) bool {
	for _, e := range sorted {
		if e.Kind == ReadyForReview || e.Kind == ConvertedToDraft {
			return e.Kind == ReadyForReview
		}
	}
	return pr.Draft
}

func (f *turnFold) add(e Event) {
	switch {
	case e.Kind == Commented && e.Notice == NudgeNotice: // ours: trusted markers only
		f.t.NudgedAt = e.At
	case e.Kind == ReadyForReview: // by anyone: the reviewers' turn begins
		f.draft, f.base = false, TurnReviewers
		f.settle(e.At, "", false)
	case e.Kind == ConvertedToDraft:
		f.draft = true
		f.settle(e.At, "", false)
	case e.Kind == Reopened:
		// Reopened is fresh (rule 5): the author's reopening hands the
		// turn back like any action of theirs; anyone else's restarts the
		// author's turn, so a PR closed as stale is not marked again at
		// once on the turn's old clock.
		if f.w.isPerson(e) && strings.EqualFold(e.Actor, f.author) {
			f.t.AuthorAt, f.base = e.At, TurnReviewers
			f.settle(e.At, "", false)
		} else if f.t.Whose == TurnAuthor {
			f.t.Since = Later(f.t.Since, e.At)
		}
	case f.w.isPerson(e) && f.pass(e):
		f.settle(e.At, e.Actor, e.Kind == Reviewed)
	}
}

// pass applies a person's action to the turn as actions pass it; false when
// it is nothing that may pass the turn.
func (f *turnFold) pass(e Event) bool {
	if e.Kind == Committed || e.Actor != "" && strings.EqualFold(e.Actor, f.author) {
		if !authorAction(e) {
			return false
		}
		f.t.AuthorAt = e.At
		f.base = TurnReviewers
		return true
	}
	if !IsMaintainer(e.Association) || !maintainerAction(e) {
		return false
	}
	state := strings.ToUpper(e.ReviewState)
	if e.Kind == Reviewed && state != ReviewStateCommented {
		f.latest[strings.ToLower(e.Actor)] = state
	}
	// An approval passes nothing to the author; a dismissed review was
	// withdrawn.
	if e.Kind != Reviewed || state != ReviewStateApproved && state != ReviewStateDismissed {
		f.base = TurnAuthor
	}
	return true
}

// settle settles the turn after an event at `at` by actor (review: a review).
func (f *turnFold) settle(at time.Time, actor string, review bool) {
	w := f.base
	switch {
	case f.draft:
		w = TurnAuthor
	case approvalStands(f.latest):
		w = TurnMaintainers
	}
	if w == f.t.Whose {
		return
	}
	f.t.Whose, f.t.Since, f.t.By, f.t.ByReview = w, at, "", false
	if w == TurnAuthor && !f.draft {
		f.t.By, f.t.ByReview = actor, review
	}
}

// authorAction: what the author does that hands the turn back.
func authorAction(e Event) bool {
	switch e.Kind {
	case Committed, ForcePushed, Commented, ReviewCommented, Reviewed, ReviewRequested:
		return true
	}
	return false
}

// maintainerAction: what a maintainer does that may pass the turn.
func maintainerAction(e Event) bool {
	switch e.Kind {
	case Commented, ReviewCommented, Reviewed:
		return true
	}
	return false
}

// approvalStands: some reviewer's latest review approves, and none's latest
// requests changes (GitHub's rule for reviewDecision).
func approvalStands(latest map[string]string) bool {
	approved := false
	for _, state := range latest {
		switch state {
		case ReviewStateChangesRequested:
			return false
		case ReviewStateApproved:
			approved = true
		}
	}
	return approved
}

// StaleClock says what time counts toward marking and closing.
type StaleClock string

const (
	// ClockInactivity: time without activity (activity-from says whose).
	ClockInactivity StaleClock = "inactivity"
	// ClockAuthorTurn: time on the author's turn only (see turnFold).
	ClockAuthorTurn StaleClock = "author-turn"
)

// Reasons of the turn's rules.
const (
	ReasonReviewersTurn   Reason = "waiting on reviewers"
	ReasonMaintainersTurn Reason = "approved, waiting on maintainers to merge"
	ReasonAuthorActed     Reason = "the author acted: the reviewers' turn"
)

// turnFresh applies the author-turn clock to an unlabelled PR whose last
// activity the inactivity rules put at last. done reports a decision;
// otherwise last becomes the time on the author's turn began.
func turnFresh(pr PR, act *Activity, cutoff, last time.Time) (Decision, time.Time, bool) {
	if !pr.CreatedAt.Before(cutoff) {
		// The turn is no older than the PR.
		return Decision{Action: Keep, Reason: ReasonActive, InactiveSince: pr.CreatedAt}, last, true
	}
	if act == nil || act.Turn.Whose == TurnUnknown {
		return Decision{Action: NeedDetail, Reason: ReasonActive}, last, true
	}
	switch act.Turn.Whose {
	case TurnReviewers:
		return Decision{Action: Keep, Reason: ReasonReviewersTurn, InactiveSince: act.Turn.Since}, last, true
	case TurnMaintainers:
		return Decision{Action: Keep, Reason: ReasonMaintainersTurn, InactiveSince: act.Turn.Since}, last, true
	}
	clock := act.Turn.Since
	if act.LastPersonLogin == "" && act.LastPersonAt.After(clock) {
		// An update nothing explains (see explain): in doubt, the author's.
		clock = act.LastPersonAt
	}
	return Decision{}, clock, false
}

// turnStale applies the author-turn clock to a stale-labelled PR: it is
// un-staled once the author acted after the mark (or it is on anyone else's
// turn), and otherwise only an update nothing explains postpones the close
// (without un-staling: the next run would mark it again at once): a third
// person's "+1" or a maintainer's ping does not.
func turnStale(act *Activity, personSince bool) (unstale, stillPersonSince bool) {
	t := act.Turn
	if t.Whose == TurnUnknown {
		return false, personSince // not read: the caller asks for the timeline
	}
	if t.Whose != TurnAuthor || act.PushedAfterMark ||
		!act.MarkedAt.IsZero() && t.AuthorAt.Sub(act.MarkedAt) > 0 {
		return true, false
	}
	return false, personSince && act.LastPersonLogin == ""
}

// NudgeAction is what the review nudge needs on one PR.
type NudgeAction int

const (
	NudgeNone    NudgeAction = iota
	NudgeDetail              // the turn must be read first
	NudgePost                // post the nudge (and add review-nudge-label)
	NudgeLabel               // the nudge is there, its label is not (a run stopped between): add it
	NudgeUnlabel             // the label belongs to a turn that passed: take it off
)

// DecideNudge applies the review nudge: after DaysBeforeReviewNudge days
// on the reviewers' turn, one nudge per turn, its label on while that turn
// lasts. Exempt and filtered-out PRs are left alone, as by Decide.
func DecideNudge(pr PR, act *Activity, now time.Time, p Policy) NudgeAction {
	labelled := p.NudgeLabel != "" && pr.HasLabel(p.NudgeLabel)
	if p.DaysBeforeReviewNudge < 0 && !labelled {
		return NudgeNone
	}
	if _, exempt := exemption(pr, p); exempt {
		return NudgeNone
	}
	if act != nil && act.ClosedNow {
		return NudgeNone // closed since it was listed: left alone, as by Decide
	}
	if act == nil || act.Turn.Whose == TurnUnknown {
		if labelled || p.nudgeDue(pr.CreatedAt, p.Quiet.Resume(now)) {
			return NudgeDetail
		}
		return NudgeNone
	}
	t := act.Turn
	onReviewers := t.Whose == TurnReviewers
	nudged := onReviewers && !t.NudgedAt.IsZero() && !t.NudgedAt.Before(t.Since)
	switch {
	case onReviewers && !nudged && p.nudgeDue(t.Since, now):
		return NudgePost
	case nudged && p.NudgeLabel != "" && !labelled && !p.Quiet.Paused(now):
		return NudgeLabel
	case labelled && !nudged:
		return NudgeUnlabel
	}
	return NudgeNone
}
