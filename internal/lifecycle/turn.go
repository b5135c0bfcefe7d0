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
	// Label is the label that put the PR on the author's turn (one of
	// author-turn-when-labeled, or author-turn-label added by a
	// maintainer); Conflict: a merge conflict did. Both leave By empty.
	Label    string
	Conflict bool
	// Check is the required check whose failure on the head commit put the
	// PR on the author's turn (author-turn-when-checks-fail); By is empty.
	Check string
	// NudgedAt is our latest review nudge; zero when none.
	NudgedAt time.Time
	// AskedAt is our latest review request (the hand-back's, rule 16's
	// rerequest-reviewers-on-answer, or an escalation's); zero when none.
	// GitHub notifies the reviewers of it: the nudge waits its days from
	// it (NudgeFrom), so they are not reminded the same day.
	AskedAt time.Time
	// EscalatedAt is our latest review escalation; zero when none.
	EscalatedAt time.Time
	// Unwanted are the turn labels a person took off during this turn:
	// stalepr never puts them back while it lasts.
	Unwanted []string
	// ConflictSeenAt is our addition of conflict-label, still on: when
	// stalepr first saw the PR's merge conflict (zero when none stands);
	// ConflictUnwanted: a person took that label off last, and stalepr
	// does not put it back.
	ConflictSeenAt   time.Time
	ConflictUnwanted bool
}

// NudgedInTurn reports whether the PR was nudged in this turn of the
// reviewers' or the maintainers': our latest nudge came at or after the
// turn's start. One nudge per turn: a nudge of an earlier turn does not
// count.
func (t Turn) NudgedInTurn() bool {
	return t.Nudged() && !t.NudgedAt.IsZero() && !t.NudgedAt.Before(t.Since)
}

// NudgeFrom is when the wait for the review nudge starts: the turn's
// start, or our review request since, whichever is later.
func (t Turn) NudgeFrom() time.Time { return Later(t.Since, t.AskedAt) }

// Nudged reports whether the turn is one the nudge reminds of: the
// reviewers', to review, or the maintainers', to merge an approved PR
// nothing blocks.
func (t Turn) Nudged() bool {
	return t.Whose == TurnReviewers || t.Whose == TurnMaintainers
}

// ClockFrom is when the stale clock of the turn starts: on the author's
// turn, the later of the turn's start and the author's last action (a
// draft whose author keeps pushing is not idle); on anyone else's turn,
// the turn's start.
func (t Turn) ClockFrom() time.Time {
	if t.Whose == TurnAuthor {
		return Later(t.Since, t.AuthorAt)
	}
	return t.Since
}

// IsMaintainer reports whether GitHub's author_association makes an
// account a maintainer: the repository's owner, a member of its
// organisation, or a collaborator. It is the fallback where the account's
// permission on the repository is not known (see who.maintainer).
func IsMaintainer(association string) bool {
	switch strings.ToUpper(association) {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// turnFold reads whose turn a PR is on from its timeline (Summarize fills
// Activity.Turn with it). The rules (README "Whose turn it is"):
//   - the reviewers' turn from when the PR is opened or marked ready;
//   - the author's when a maintainer (who.maintainer) acts after the
//     author's last action: a review that requests changes or comments, a
//     review comment, or a comment while no person's review is requested;
//     and from when the PR became a draft;
//   - the reviewers' again when the author acts (the author's own actions
//     count even when the author is a bot): a push of commits that are
//     the author's (who.commitIsAuthor), a comment, a reply to a review,
//     a review requested of a person or team, marking the draft ready;
//     and when a maintainer requests a review of a person or team;
//   - the maintainers' (to merge) while a maintainer's approval stands and
//     no maintainer's latest review requests changes, unless it is a
//     draft; the author's push after it sets the approvals aside;
//   - at the end (final): GitHub's reviewDecision, when known, may deny
//     the maintainers' turn; a merge conflict, an author-turn label or
//     (with ChecksFail) a required check failing on the head commit after
//     the author's last action puts the PR on the author's turn.
//
// Third persons (no write access), bots and stalepr never change the turn;
// nor does a bot's push or a merge of another branch (someone else's
// content push answers for the PR's side, contentPush); a person's turn
// label added or taken off by hand is their word on it (handedByLabel). On a maintainer's own PR the author's
// actions are the author's and the other maintainers are the reviewers. A
// dismissed review passes nothing: it was withdrawn.
type turnFold struct {
	w       who
	draft   bool
	base    Whose             // the turn as actions pass it, before drafts and approvals
	latest  map[string]string // each maintainer's latest review that is not a comment
	labels  []string          // author-turn-when-labeled
	labelAt time.Time         // one of labels was last added
	checks  bool              // ChecksFail
	// handOver: the turn labels, which a person adding one by hand hands
	// the turn with (to the author, to the reviewers), and taking one off
	// hands to the other party.
	handOver map[Whose]string
	// wordAt: a person last set the turn by a turn label; a conflict, or
	// an author-turn-when-labeled label or a failing check older than
	// their word, does not overrule it.
	wordAt time.Time
	// passes are when the turn passed, oldest first (settle).
	passes []time.Time
	// conflictLabel is conflict-label; conflictAt our standing addition
	// of it, conflictUnwanted a person's removal of it last.
	conflictLabel    string
	conflictAt       time.Time
	conflictUnwanted bool
	// headAt is the head's latest change the history dates (a commit, a
	// force push): a sighting before it saw another head.
	headAt time.Time
	t      Turn
}

func newTurnFold(pr PR, sorted []Event, w who, o Options) turnFold {
	f := turnFold{
		w: w, draft: openedAsDraft(pr, sorted), labels: o.AuthorTurnLabels, checks: o.ChecksFail,
		handOver: map[Whose]string{TurnAuthor: o.AuthorTurnLabel, TurnReviewers: o.ReviewersTurnLabel},
		base:     TurnReviewers, latest: map[string]string{},
		t:             Turn{Whose: TurnReviewers, Since: pr.CreatedAt},
		conflictLabel: o.ConflictLabel,
	}
	f.settle(pr.CreatedAt, "", false)
	return f
}

// openedAsDraft reports whether the PR was opened as a draft: the first change of draft state tells;
// without one, the listing says.
func openedAsDraft(pr PR, sorted []Event) bool {
	for _, e := range sorted {
		if e.Kind == ReadyForReview || e.Kind == ConvertedToDraft {
			return e.Kind == ReadyForReview
		}
	}
	return pr.Draft
}

// add folds in e; pending are the reviews requested of people and teams
// and not yet given.
func (f *turnFold) add(e Event, pending []string) {
	if e.Kind == Committed || e.Kind == ForcePushed {
		f.headAt = Later(f.headAt, e.At)
	}
	if isLabelChange(e) && f.conflictLabel != "" && strings.EqualFold(e.Label, f.conflictLabel) {
		// Also when author-turn-when-labeled lists it: ours is then both.
		f.conflictRecord(e)
	}
	switch {
	case e.Kind == Commented && e.Notice == NudgeNotice: // ours: trusted markers only
		f.t.NudgedAt = e.At
	case e.Kind == Commented && e.Notice == EscalateNotice:
		f.t.EscalatedAt = e.At
	case e.Kind == ReviewRequested && f.w.isSelf(e.Actor): // ours: by the token's identity only
		f.t.AskedAt = e.At
	case e.Kind == Labeled && ContainsFold(f.labels, e.Label):
		f.labelAt = e.At
	case e.Kind == ReadyForReview: // by anyone: the reviewers' turn begins
		f.draft, f.base = false, TurnReviewers
		f.settle(e.At, "", false)
	case e.Kind == ConvertedToDraft:
		f.draft = true
		f.settle(e.At, "", false)
	case isLabelChange(e) && f.handOverLabel(e.Label) != TurnUnknown:
		f.handedByLabel(e)
	case e.Kind == Reopened:
		// Reopened is fresh (rule 5): the author's reopening hands the
		// turn back like any action of theirs; anyone else's restarts the
		// author's turn, so a PR closed as stale is not marked again at
		// once on the turn's old clock.
		if f.w.counts(e) && f.w.byAuthor(e) {
			f.t.AuthorAt, f.base = e.At, TurnReviewers
			f.settle(e.At, "", false)
		} else if f.t.Whose == TurnAuthor {
			f.t.Since = Later(f.t.Since, e.At)
		}
	case f.w.counts(e) && f.pass(e, pending):
		f.settle(e.At, e.Actor, e.Kind == Reviewed)
	}
}

// pass applies an action to the turn as actions pass it; false when it is
// nothing that may pass the turn.
func (f *turnFold) pass(e Event, pending []string) bool {
	if f.w.byAuthor(e) {
		if !authorAction(e) || e.Kind == ReviewRequested && f.w.reviewerBot(e) {
			return false // asking a bot for a review asks no maintainer
		}
		f.t.AuthorAt = e.At
		f.base = TurnReviewers
		if e.Kind == Committed || e.Kind == ForcePushed {
			f.setApprovalsAside()
		}
		return true
	}
	if f.contentPush(e) {
		// The PR's side answered, though not its author: the reviewers'
		// turn, the approvals set aside as after the author's push.
		f.base = TurnReviewers
		f.setApprovalsAside()
		return true
	}
	if !maintainerAction(e) || !f.w.maintainer(e) {
		return false
	}
	state := strings.ToUpper(e.ReviewState)
	switch {
	case e.Kind == ReviewRequested:
		if f.w.reviewerBot(e) {
			return false
		}
		f.base = TurnReviewers // a review asked of (or moved to) a person or team
		return true
	case e.Kind == Commented && len(pending) > 0 && !ContainsFold(pending, e.Actor):
		// A review is still requested of someone else: a comment asks the
		// author for nothing. The requested reviewer's own comment answers
		// the request, as their review would.
		return false
	case e.Kind == Reviewed && state != ReviewStateCommented:
		f.latest[strings.ToLower(e.Actor)] = state
	}
	// An approval passes nothing to the author; a dismissed review was
	// withdrawn.
	if e.Kind != Reviewed || state != ReviewStateApproved && state != ReviewStateDismissed {
		f.base = TurnAuthor
	}
	return true
}

// contentPush reports whether e is a commit someone other than the author
// pushed to the PR's branch with content of its own (a co-author, a
// maintainer finishing the work or taking over a bot's PR): the PR's side
// answering, as the author's push does. A merge of another branch
// ("Update branch") answers nothing, nor does a bot's commit.
func (f *turnFold) contentPush(e Event) bool {
	return e.Kind == Committed && f.w.isPerson(e) && !e.IsMerge()
}

// conflictRecord follows conflict-label: only our own addition records
// when we saw a conflict (a marker trusted from our identity alone);
// anyone's removal ends the record, and a person's says not to put it
// back.
func (f *turnFold) conflictRecord(e Event) {
	f.conflictAt, f.conflictUnwanted = time.Time{}, false
	switch {
	case e.Kind == Labeled && f.w.isSelf(e.Actor):
		f.conflictAt = e.At
	case e.Kind == Unlabeled && f.w.isPerson(e):
		f.conflictUnwanted = true
	}
}

// handOverLabel is the party a turn label hands the turn to when a person
// adds it (TurnUnknown when label is no turn label); taking it off hands
// the turn to the other party.
func (f *turnFold) handOverLabel(label string) Whose {
	for whose, l := range f.handOver {
		if l != "" && strings.EqualFold(label, l) {
			return whose
		}
	}
	return TurnUnknown
}

// handedByLabel applies a turn label a person added or took off by hand
// (triagebot's S-waiting-on-author): their word on whose turn it is.
// Adding one hands the turn to its party, taking it off to the other.
// Labelling needs the triage role, so any person's label counts; our own
// label writes and other bots' pass nothing.
func (f *turnFold) handedByLabel(e Event) {
	if !f.w.isPerson(e) {
		return
	}
	whose := f.handOverLabel(e.Label)
	if e.Kind == Unlabeled {
		whose = other(whose)
	}
	f.base = whose
	f.settle(e.At, "", false)
	f.wordAt = e.At
	if f.t.Whose == TurnAuthor {
		f.t.By, f.t.ByReview, f.t.Label = "", false, ""
		if e.Kind == Labeled {
			f.t.Label = e.Label
		}
	}
	if e.Kind == Unlabeled && !ContainsFold(f.t.Unwanted, e.Label) {
		f.t.Unwanted = append(f.t.Unwanted, e.Label)
	}
}

// other is the party a turn passes to from whose.
func other(whose Whose) Whose {
	if whose == TurnAuthor {
		return TurnReviewers
	}
	return TurnAuthor
}

// setApprovalsAside forgets the approvals standing before the author's
// push: the new commits are not what was approved (GitHub's "dismiss
// stale approvals"), so the PR is the reviewers' again, not theirs to merge.
// Change requests stand.
func (f *turnFold) setApprovalsAside() {
	for k, v := range f.latest {
		if v == ReviewStateApproved {
			delete(f.latest, k)
		}
	}
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
	f.passes = append(f.passes, at)
	f.t.Whose, f.t.Since, f.t.By, f.t.ByReview, f.t.Label, f.t.Unwanted = w, at, "", false, "", nil
	if w == TurnAuthor && !f.draft {
		f.t.By, f.t.ByReview = actor, review
	}
}

// final is the turn once the history is read, with what the PR's listing
// says now: a reviewDecision other than APPROVED means the approvals seen
// do not make it GitHub's approved PR (not enough of them, or not by
// accounts with write access), so it is not the maintainers' turn; a merge
// conflict (mergeable CONFLICTING), an author-turn label or a required
// check failing on the head commit (failingCheck) is the author's to
// resolve. The author's turn then counts from when the label was added (for
// a conflict, which GitHub does not date, from the base's latest push:
// conflictSince; for a check, from its completion), never before the turn
// it replaces began. A required check that failed and no longer does
// (greenAgain) dates the turn that follows from when it stopped failing.
func (f *turnFold) final(pr PR) Turn {
	t := f.endTurn(pr)
	if f.conflictLabel != "" && pr.HasLabel(f.conflictLabel) {
		t.ConflictSeenAt = f.conflictAt
	}
	t.ConflictUnwanted = f.conflictUnwanted
	return t
}

// endTurn is final's turn, before the conflict's record.
func (f *turnFold) endTurn(pr PR) Turn {
	t := f.t
	if t.Whose == TurnMaintainers && pr.ReviewDecision != "" && !strings.EqualFold(pr.ReviewDecision, ReviewDecisionApproved) {
		t.Whose = f.base
	}
	if t.Whose == TurnAuthor {
		return t
	}
	for _, l := range pr.Labels {
		if ContainsFold(f.labels, l) && !(f.wordStands(t) && !f.labelAt.After(f.wordAt)) {
			since := Later(t.Since, f.labelAt)
			if f.labelAt.IsZero() {
				since = Later(t.Since, pr.UpdatedAt)
			}
			return Turn{Whose: TurnAuthor, Since: since, AuthorAt: t.AuthorAt, NudgedAt: t.NudgedAt, Label: l}
		}
	}
	// GitHub does not date a conflict: a person's word given in this turn
	// may have been given knowing of it, so it stands.
	if strings.EqualFold(pr.Mergeable, MergeableConflicting) && !f.wordStands(t) {
		return Turn{Whose: TurnAuthor, Since: Later(t.Since, f.conflictSince(pr)), AuthorAt: t.AuthorAt, NudgedAt: t.NudgedAt, Conflict: true}
	}
	if !f.checks {
		return t
	}
	if name, at, ok := failingCheck(pr, t.AuthorAt); ok && !(f.wordStands(t) && !at.After(f.wordAt)) {
		return Turn{Whose: TurnAuthor, Since: Later(t.Since, at), AuthorAt: t.AuthorAt, NudgedAt: t.NudgedAt, Check: name}
	}
	// A required check that failed and was re-run green was the author's
	// turn while it failed: the reviewers' (or the maintainers') wait
	// counts from when it stopped failing, not across the failure.
	after := t.AuthorAt
	if f.wordStands(t) {
		after = Later(after, f.wordAt)
	}
	if at, ok := greenAgain(pr, after); ok {
		t.Since = Later(t.Since, at)
	}
	return t
}

// conflictSince is when a PR's merge conflict arose at the latest: the
// push of the base branch's head (where the read does not tell it, the
// PR's last update, which our own writes move: later, never earlier), or,
// when earlier, our first sighting of it: our conflict-label addition,
// still on (it comes off once a run sees the PR merge again), or the
// head's latest change after it (the sighting saw another head). Both are
// times it was in conflict already; only the sighting stays put on a base
// pushed to every day. A conflict resolved and back again between two
// runs is taken for one: the time out of conflict it counts is under one
// run's interval (a run that sees the PR merge takes the label off).
func (f *turnFold) conflictSince(pr PR) time.Time {
	at := pr.BaseHeadAt
	if at.IsZero() {
		at = pr.UpdatedAt
	}
	if f.conflictAt.IsZero() || f.conflictLabel == "" || !pr.HasLabel(f.conflictLabel) {
		return at
	}
	if seen := Later(f.conflictAt, f.headAt); seen.Before(at) {
		return seen
	}
	return at
}

// wordStands reports whether a person's turn label decided turn t: given
// since the turn began, with nothing passing the turn after it.
func (f *turnFold) wordStands(t Turn) bool {
	return !f.wordAt.IsZero() && !f.wordAt.Before(t.Since)
}

// authorAction reports whether e is what the author does that hands the turn back.
func authorAction(e Event) bool {
	switch e.Kind {
	case Committed, ForcePushed, Commented, ReviewCommented, Reviewed, ReviewRequested:
		return true
	}
	return false
}

// maintainerAction reports whether e is what a maintainer does that may pass the turn.
func maintainerAction(e Event) bool {
	switch e.Kind {
	case Commented, ReviewCommented, Reviewed, ReviewRequested:
		return true
	}
	return false
}

// approvalStands reports whether some reviewer's latest review approves, and none's latest
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
	// A PR labelled stale on someone else's turn (another bot's mark, on a
	// switch day): nothing happened, it was never the author's to answer.
	ReasonNotAuthorsTurn    Reason = "waiting on the reviewers: not the author's to answer"
	ReasonNotAuthorsToMerge Reason = "approved, waiting on maintainers to merge: not the author's to answer"
)

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
// on the reviewers' turn, or on the maintainers' (approved, nothing
// blocking, nobody merges: the nudge then names the merge), one nudge per
// turn, its label on while that turn lasts; none while nobody can be asked
// (every reviewer the PR waits on is away or busy on GitHub, Activity.Busy,
// or it waits on nobody since its reviewer withdrew: nobodyToAsk), nor
// after the turn's escalation (DecideEscalation), which comes in its place. Exempt and filtered-out PRs are left alone, as
// by Decide (under the policy For the PR).
func DecideNudge(pr PR, act *Activity, now time.Time, p Policy) NudgeAction {
	p = p.For(pr)
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
	nudged := t.NudgedInTurn()
	switch {
	case t.Nudged() && !nudged && !t.EscalatedInTurn() && p.nudgeDue(t.NudgeFrom(), now) && !nobodyToAsk(pr, act, now, p):
		return NudgePost
	case nudged && p.NudgeLabel != "" && !labelled && !p.Quiet.Paused(now):
		return NudgeLabel
	case labelled && !nudged:
		return NudgeUnlabel
	}
	return NudgeNone
}

// TurnLabels is what the turn labels of a PR need: Add goes on, Remove
// comes off ("" nothing); Detail: only the timeline tells the turn.
// AddConflict, RemoveConflict: conflict-label, the record of a merge
// conflict, goes on or comes off (with the turn labels' write).
type TurnLabels struct {
	Add, Remove                 string
	Detail                      bool
	AddConflict, RemoveConflict string
}

// Any reports whether the labels need a read or a write.
func (t TurnLabels) Any() bool { return t.Detail || t.Writes() }

// Writes reports whether a label goes on or comes off.
func (t TurnLabels) Writes() bool {
	return t.Add != "" || t.Remove != "" || t.AddConflict != "" || t.RemoveConflict != ""
}

// DecideTurnLabels keeps the turn labels (author-turn-label,
// reviewers-turn-label) right: the one of the turn on, the other off; on
// the maintainers' turn neither. Exempt and filtered-out PRs are left
// alone, as by Decide; so is a PR closed since it was listed. Each run
// reads the turn afresh, so the labels follow it without a state of their
// own, and a label already right costs nothing.
//
// Under the author-turn clock, conflict-label records our first sighting
// of a merge conflict that puts the PR on its author's turn (it dates that
// turn: turnFold.conflictSince): on then, unless a person took it off, and
// off once GitHub says the PR merges (MERGEABLE; unknown is no answer),
// when the label on is ours.
func DecideTurnLabels(pr PR, act *Activity, p Policy) TurnLabels {
	p = p.For(pr)
	record := p.ConflictLabel != "" && p.StaleClock == ClockAuthorTurn
	if p.AuthorTurnLabel == "" && p.ReviewersTurnLabel == "" && !record {
		return TurnLabels{}
	}
	if _, exempt := exemption(pr, p); exempt || act != nil && act.ClosedNow {
		return TurnLabels{}
	}
	if act == nil || act.Turn.Whose == TurnUnknown {
		return TurnLabels{Detail: true}
	}
	t := turnLabels(pr, act, p)
	if record {
		t.AddConflict, t.RemoveConflict = conflictRecord(pr, act.Turn, p.ConflictLabel)
	}
	return t
}

// conflictRecord is what conflict-label needs: on when a merge conflict
// puts the PR on its author's turn (not when a person took it off), off
// when ours and GitHub says the PR merges.
func conflictRecord(pr PR, t Turn, label string) (add, remove string) {
	switch on := pr.HasLabel(label); {
	case t.Conflict && !on && !t.ConflictUnwanted:
		return label, ""
	case on && !t.ConflictSeenAt.IsZero() && strings.EqualFold(pr.Mergeable, MergeableMergeable):
		return "", label
	}
	return "", ""
}

// turnLabels keeps author-turn-label and reviewers-turn-label right.
func turnLabels(pr PR, act *Activity, p Policy) TurnLabels {
	want, other := "", []string{p.AuthorTurnLabel, p.ReviewersTurnLabel}
	switch act.Turn.Whose {
	case TurnAuthor:
		want, other = p.AuthorTurnLabel, []string{p.ReviewersTurnLabel}
	case TurnReviewers:
		want, other = p.ReviewersTurnLabel, []string{p.AuthorTurnLabel}
	}
	var t TurnLabels
	if want != "" && !pr.HasLabel(want) && !ContainsFold(act.Turn.Unwanted, want) {
		t.Add = want
	}
	for _, l := range other {
		if l != "" && pr.HasLabel(l) {
			t.Remove = l
		}
	}
	return t
}
