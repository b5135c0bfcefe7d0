package lifecycle

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"time"
)

// EventKind names the timeline events the rules look at.
type EventKind int

const (
	Other EventKind = iota
	Commented
	Reviewed
	ReviewCommented
	Committed // a pushed commit: GitHub records no actor, only git dates
	ForcePushed
	Labeled
	Unlabeled
	Reopened
	Closed
	ReadyForReview
	Renamed
	ReviewRequested
	ReviewRequestRemoved
	Edited // another change a person makes: assignees, milestone, base branch
	// ConvertedToDraft: the PR became a draft (its turn passes to the author).
	ConvertedToDraft
	// CommentDeleted: someone deleted a comment (DeletedAuthor wrote it);
	// the comment itself is gone from the history.
	CommentDeleted
)

// Notice identifies one of stalepr's own comments by its hidden marker.
type Notice int

const (
	NoNotice    Notice = iota
	StaleNotice        // posted when marking
	CloseNotice        // posted just before closing
	NudgeNotice        // the review nudge (see Turn): at most one per reviewers' turn
)

// Event is one entry of a PR's history, in our vocabulary.
type Event struct {
	Kind  EventKind
	At    time.Time
	Actor string // login; empty for Committed (GitHub records no pusher)
	Bot   bool   // the actor's account type is Bot; for Committed, a bot authored or committed it
	Label string // Labeled, Unlabeled
	// Commented only. Body is the comment's text as the adapter read it;
	// the sweep reads our marker from it into Notice, MarkedAt and
	// MarkHead (and drops the text).
	Body     string
	Notice   Notice
	MarkedAt time.Time // carried by a StaleNotice: when the label was added
	MarkHead string    // carried by a StaleNotice: the head commit when the label was added
	// Rule, carried by a CloseNotice: the rule that closed the PR, as our
	// marker records it ("" an earlier version's marker, which records none).
	Rule RuleName

	CommentID int64 // Commented only: the comment's ID, when the source tells (0: unknown)
	// Command: Commented only, the comment asks for a command on closed
	// PRs (Policy.AsksCommand, read by the sweep with the text).
	Command bool

	// DeletedAuthor: CommentDeleted only, who wrote the deleted comment.
	DeletedAuthor string

	// Assignee: Edited of an assignment only (GraphQL's AssignedEvent),
	// the account assigned, in REST's form ("NAME[bot]" for an app;
	// "Copilot" for the coding agent); AssigneeBot: it is a Bot. An agent's
	// PR is its delegator's (see who.humanOfRecord).
	Assignee    string
	AssigneeBot bool

	// Committed only: the commit and its parents, and its message's first
	// line (Headline), which tells a merge where the parents are not read.
	SHA      string
	Parents  []string
	Headline string
	// Association is GitHub's author_association of a comment, review or
	// review comment (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE...);
	// empty on other events, which GitHub does not qualify.
	Association string
	// ReviewRequested, ReviewRequestRemoved: the requested login or team slug.
	Reviewer string
	// Reviewed: the review's state as it stands now (GitHub rewrites a
	// dismissed approval to "dismissed").
	ReviewState string

	// CommitAuthor, CommitCommitter: Committed only, the GitHub logins of
	// the commit's git author and committer ("" when no account matches
	// the git identity). GraphQL's Commit.author.user / committer.user give
	// them; REST's committed timeline event has no account, so a REST read
	// leaves both empty. They say whose push a commit is: a maintainer's
	// fixup on a contributor's PR is not the PR author's action.
	CommitAuthor    string
	CommitCommitter string
	// Team: ReviewRequested, ReviewRequestRemoved of a team, the team as
	// "org/slug" (Reviewer then stays empty; a user's or bot's request has
	// Reviewer set and Team empty). Team membership is not readable with a
	// repository token, so a team request is answered by a maintainer.
	Team string
	// ReviewerBot: ReviewRequested, ReviewRequestRemoved, the requested
	// reviewer is a bot (Copilot code review is requested as "Copilot", a
	// Bot): its pending request never waits on a person.
	ReviewerBot bool
	// Access: Reviewed only, whether the review's author can push to the
	// repository (GraphQL's PullRequestReview.authorCanPushToRepository),
	// the permission GitHub's reviewDecision counts; AccessUnknown when the
	// source does not tell (REST).
	Access Access
}

// IsMerge reports whether a Committed event merges another branch into
// the PR's: two parents where the source names them, else a headline as
// git and GitHub's "Update branch" write it ("Merge branch 'main' into
// x", "Merge remote-tracking branch 'origin/main' into x"). A merge
// brings the base's work, not the PR's: it answers no one. A merge under
// another headline is taken for content, the harmless reading (the
// reviewers' turn).
func (e Event) IsMerge() bool {
	if len(e.Parents) > 1 {
		return true
	}
	for _, p := range []string{"Merge branch ", "Merge remote-tracking branch ", "Merge commit "} {
		if strings.HasPrefix(e.Headline, p) {
			return true
		}
	}
	return false
}

// Access is what a source tells of an account's write access to the
// repository.
type Access int8

const (
	// AccessUnknown: the source does not tell (the zero value).
	AccessUnknown Access = iota
	// AccessWrite: the account can push (write, maintain or admin).
	AccessWrite
	// AccessNone: the account cannot push.
	AccessNone
)

// Activity is what the rules need to know beyond the listing, summarised from
// a PR's timeline or from the repository's recent comments.
type Activity struct {
	MarkedAt time.Time // the stale label was last added; zero when unknown
	// ForeignMark: that label was not stalepr's. A person added it by hand,
	// or another bot (actions/stale before a switch) did with its own
	// comment. Such a mark keeps its clock and gets no notice of ours.
	ForeignMark     bool
	NoticeAt        time.Time // our stale notice for that mark; zero when none
	MarkHead        string    // the head commit when our notice was posted; "" when unknown
	PushedAfterMark bool      // commits no bot made reached the PR after that (see pushedSinceMark)
	// AuthorPushedAfterMark: some of those commits are the author's (see
	// who.commitIsAuthor): what hands the author's turn back.
	AuthorPushedAfterMark bool
	CloseNoticeAt         time.Time // our closing comment for that mark; zero when none
	LastPersonAt          time.Time // the last thing a person did; zero when nothing seen
	LastPersonLogin       string
	ReopenedAt            time.Time // the last reopening, by anyone
	PendingReviewers      []string  // review requested and not yet given
	// Answered are the reviewers whose change request the author answered
	// since, with no review request of them after it (see handBackFold).
	Answered []Answered
	// Withdrew are the reviewers who withdrew the review requested of them
	// themselves, with no review requested of anyone, and no maintainer's
	// review, since: the PR waits on them no more, and a PR left with
	// nobody to ask is escalated at once (nobodyToAsk).
	Withdrew []string
	// Busy are reviewers the PR waits on whose GitHub status said busy
	// when the sweep read it (not from the history: the sweep fills it,
	// once a run, for the PRs a nudge or an escalation is decided for);
	// nil when not read.
	Busy           []Busy
	AwaitingReview bool // the author acted last and waits for a requested review
	Approved       bool // an approval still stands (see Approved)
	ClosedBySelf   bool // the last close was stalepr's, after its own closing comment
	ClosedByBot    bool // the last close was a bot's (stalepr's included)
	// ClosedNow: the history ends with a close, no reopening after it. The
	// rules read open PRs, so the PR was closed after it was listed (by a
	// concurrent run, by a person): it is left alone.
	ClosedNow bool
	ClosedAt  time.Time // that close; zero when open
	// LastEventAt is the latest thing the history explains, by anyone. An
	// updated_at later than it is a change nobody can name (a push of old
	// commits, an edit): the rules count it as a person's.
	LastEventAt time.Time
	// TouchedAt is the latest thing the history dates, by anyone (a bot's
	// comment, our own writes), but the stale label going on (with the
	// label changes of ours that came with it) and the deletion of our
	// comments: what activity-from: anyone counts, as
	// updated_at does, less the mark that moved it. A notice posted late
	// counts its days from it under that clock (inactivityNoticeSince).
	TouchedAt time.Time
	// HumanOfRecord is, on a coding agent's PR, the person who answers for
	// it (see who.humanOfRecord): the author's turn is theirs and notices
	// address them, never the agent. "" on anyone else's PR, or when the
	// history names nobody: then nobody is mentioned.
	HumanOfRecord string
	// Turn is whose turn the PR is on (see turnFold); unknown when only
	// the repository's comments were read (FromComments).
	Turn Turn
	// TurnPasses are the times the turn passed, oldest first, the current
	// turn's start among them: a nudge or an escalation on each side of
	// one belongs to a turn of its own, however close in time.
	TurnPasses []time.Time
	// Unsure are the accounts whose maintainer-ness was consulted and whose
	// write access the run did not know (Options.Access): their
	// author_association (or Options.Assume) decided.
	Unsure []string
	// NeedsAncestry: the head moved since the mark and only commits or
	// force-pushes that do not count (a bot's autofix; for the author's
	// push, anyone's but the author's) are dated after it. Commits a person
	// made days ago and pushed since hide under them (their git dates are
	// old): only the head's ancestry tells (Options.Ancestry). Until it is
	// read, the push is taken for a person's (PushedAfterMark,
	// AuthorPushedAfterMark): in doubt, not closed.
	NeedsAncestry bool
	// AncestryFrom, with NeedsAncestry: where the chain of commits that do
	// not count ends short of the mark's head, as far as the head's commits
	// were read (the head itself before any read).
	AncestryFrom string
	// Intake is what the history tells the intake clock (SummarizeIntake),
	// read with Options.Intake; its zero value keeps a PR out of the class.
	Intake IntakeActivity
}

// updateSlack is how far updated_at may lie after the last explained event
// and still be explained by it: GitHub dates both to the second, a push
// lands shortly after its commit is made.
const updateSlack = time.Minute

// foreignNoticeWindow is how close to a bot's stale label its own comment
// must be to make the mark that bot's (actions/stale comments, then labels,
// seconds apart).
const foreignNoticeWindow = 10 * time.Minute

// IsBotLogin reports whether a login belongs to a GitHub App or bot account.
// The "[bot]" suffix is reserved for them, so it is a safe fallback when the
// account type is missing.
func IsBotLogin(login string) bool {
	return strings.HasSuffix(strings.ToLower(login), "[bot]")
}

// Summarize reads a PR's whole history (its timeline) against its listing.
// self lists the logins stalepr writes as: only their comments can carry
// our markers. A marker in anyone else's comment (a quote, a paste) is an
// ordinary comment. The history is folded once, oldest first, by one small
// fold per question the rules ask (the mark, a person's last activity, the
// reviews, the close, whose turn it is); then what the history cannot
// explain of the listing's updated_at is put down to a person.
func Summarize(pr PR, events []Event, staleLabel string, self []string) Activity {
	return SummarizeWith(pr, events, staleLabel, Options{Self: self})
}

// SummarizeWith is Summarize with what the run knows of the accounts
// (Options): who is a bot, a reviewer, a maintainer.
func SummarizeWith(pr PR, events []Event, staleLabel string, o Options) Activity {
	sorted := chronological(events)
	w := newWho(o, pr, sorted)
	f := newFolds(pr, sorted, staleLabel, w, o)
	for _, e := range sorted {
		f.add(e)
	}
	a := f.activity()
	var more, authorMore string
	a.PushedAfterMark, more = pushedAfterMark(pr, events, a.MarkHead, a.MarkedAt, w.counts, o)
	a.AuthorPushedAfterMark, authorMore = pushedAfterMark(pr, events, a.MarkHead, a.MarkedAt, w.byAuthor, o)
	a.AncestryFrom = cmp.Or(more, authorMore)
	a.NeedsAncestry = a.AncestryFrom != ""
	a.Unsure = w.unsureLogins()
	if o.Intake {
		a.Intake = SummarizeIntake(pr, events, o)
	}
	return explain(a, pr)
}

// folds are Summarize's folds over one history, fed the same events in
// the same order.
type folds struct {
	w           who
	pr          PR
	lastEventAt time.Time
	touchedAt   time.Time // lastEventAt less the stale label going on
	mark        markFold
	person      personFold
	reviews     reviewFold
	close       closeFold
	turn        turnFold
	handBack    handBackFold
	// ownLabels: when our identity changed a label other than the stale
	// label; those at the mark came with it (labels-to-add-when-stale,
	// labels-to-remove-when-stale, one request) and touch nothing.
	ownLabels []time.Time
}

func newFolds(pr PR, sorted []Event, staleLabel string, w who, o Options) *folds {
	return &folds{
		w:        w,
		pr:       pr,
		mark:     markFold{w: w, staleLabel: staleLabel, botComments: map[string]time.Time{}},
		person:   personFold{w: w, staleLabel: staleLabel},
		reviews:  reviewFold{w: w},
		close:    closeFold{w: w},
		turn:     newTurnFold(pr, sorted, w, o),
		handBack: newHandBackFold(w),
	}
}

func (f *folds) add(e Event) {
	e = f.w.trusted(e)
	if f.w.answersListedTeam(e, f.reviews.pending) {
		e.Access = AccessWrite // a listed team's reviewer, for this review
	}
	f.lastEventAt = Later(f.lastEventAt, e.At)
	switch {
	case !f.touches(e):
	case (e.Kind == Labeled || e.Kind == Unlabeled) && f.w.isSelf(e.Actor):
		f.ownLabels = append(f.ownLabels, e.At)
	default:
		f.touchedAt = Later(f.touchedAt, e.At)
	}
	// The person fold reads the mark as it stood before e (an un-stale of
	// ours dates what came after it), the close fold our closing comment.
	f.person.add(e, f.mark.at)
	f.close.add(e, f.mark.closeNoticeAt)
	f.mark.add(e)
	f.reviews.add(e)
	f.turn.add(e, f.reviews.pending)
	f.handBack.add(e)
}

// touches reports whether e is activity to activity-from: anyone where a
// notice posted late counts from (Activity.TouchedAt): not the stale label
// going on, nor the deletion of one of our comments (a maintainer deleting
// the notice answers nobody; see personFold).
func (f *folds) touches(e Event) bool {
	mark := e.Kind == Labeled && strings.EqualFold(e.Label, f.mark.staleLabel)
	return !mark && !(e.Kind == CommentDeleted && f.w.isSelf(e.DeletedAuthor))
}

// touched is Activity.TouchedAt: touchedAt, and our label changes but
// those that came with the mark, which moved updated_at as the mark did.
func (f *folds) touched() time.Time {
	at := f.touchedAt
	for _, t := range f.ownLabels {
		if d := t.Sub(f.mark.at); d > updateSlack || d < -updateSlack {
			at = Later(at, t)
		}
	}
	return at
}

func (f *folds) activity() Activity {
	pending := f.reviews.pending
	author := f.pr.Author
	turn := f.turn.final(f.pr)
	approved := Approved(f.reviews.reviews)
	if f.pr.ReviewDecision != "" {
		approved = strings.EqualFold(f.pr.ReviewDecision, ReviewDecisionApproved) // GitHub's own word
	}
	return Activity{
		MarkedAt:         f.mark.at,
		ForeignMark:      f.mark.foreign(),
		NoticeAt:         f.mark.noticeAt,
		MarkHead:         f.mark.head,
		CloseNoticeAt:    f.mark.closeNoticeAt,
		LastPersonAt:     f.person.at,
		LastPersonLogin:  f.person.login,
		ReopenedAt:       f.close.reopenedAt,
		PendingReviewers: pending,
		Withdrew:         f.reviews.withdrew,
		Answered:         f.handBack.answered(pending),
		AwaitingReview:   len(pending) > 0 && author != "" && (strings.EqualFold(f.person.login, author) || f.w.isHuman(f.person.login)),
		HumanOfRecord:    f.w.human,
		Approved:         approved,
		ClosedBySelf:     f.close.bySelf,
		ClosedByBot:      f.close.byBot,
		ClosedNow:        !f.close.closedAt.IsZero(),
		ClosedAt:         f.close.closedAt,
		LastEventAt:      f.lastEventAt,
		TouchedAt:        f.touched(),
		Turn:             turn,
		TurnPasses:       append(slices.Clip(f.turn.passes), turn.Since),
	}
}

// trusted drops the marker of a comment stalepr did not write (a quote, a
// paste, another bot repeating it): it is an ordinary comment.
func (w who) trusted(e Event) Event {
	if e.Kind == Commented && e.Notice != NoNotice && !w.isSelf(e.Actor) {
		e.Notice, e.MarkedAt, e.MarkHead, e.Rule = NoNotice, time.Time{}, "", ""
	}
	return e
}

// markFold follows the stale label: when it was last added and by whom,
// and our notices for that mark. Adding or removing the label starts over.
type markFold struct {
	w          who
	staleLabel string

	at            time.Time // the label was added (or our notice says so)
	noticeAt      time.Time // our stale notice
	head          string    // the head commit our notice recorded
	closeNoticeAt time.Time // our closing comment
	by            string    // who added the label
	byPerson      bool      // a person added it by hand
	// botNoticed: the bot that added the label commented within
	// foreignNoticeWindow of it, before or after: its own notice.
	botNoticed  bool
	botComments map[string]time.Time // each bot's last plain comment, by lower-case login
}

// foreign is the foreign-mark rule (see Activity.ForeignMark): a label
// that our notice does not announce is someone else's when a person added
// it, or when the bot that added it came with its own comment.
func (m *markFold) foreign() bool {
	return m.noticeAt.IsZero() && (m.byPerson || m.botNoticed)
}

func (m *markFold) add(e Event) {
	switch {
	case e.Kind == Labeled && strings.EqualFold(e.Label, m.staleLabel):
		prev, commented := m.botComments[strings.ToLower(e.Actor)]
		*m = markFold{
			w: m.w, staleLabel: m.staleLabel, botComments: m.botComments,
			head: m.head, // only taking the label off forgets our notice's head
			at:   e.At, by: e.Actor, byPerson: !m.w.isBot(e),
			botNoticed: commented && e.At.Sub(prev) <= foreignNoticeWindow,
		}
	case e.Kind == Unlabeled && strings.EqualFold(e.Label, m.staleLabel):
		*m = markFold{w: m.w, staleLabel: m.staleLabel, botComments: m.botComments}
	case e.Kind == Commented:
		m.comment(e)
	}
}

func (m *markFold) comment(e Event) {
	switch e.Notice {
	case StaleNotice:
		m.noticeAt, m.head = e.At, e.MarkHead
		m.at = Later(m.at, e.MarkedAt)
	case CloseNotice:
		m.closeNoticeAt = e.At
	case NudgeNotice, EscalateNotice, CommandNotice:
		// Ours, and no notice of a mark: never a bot's own notice next to
		// its label.
	default:
		if !m.w.isBot(e) {
			return
		}
		m.botComments[strings.ToLower(e.Actor)] = e.At
		if !m.at.IsZero() && !m.byPerson && strings.EqualFold(e.Actor, m.by) && e.At.Sub(m.at) <= foreignNoticeWindow {
			m.botNoticed = true // its notice came right after its label
		}
	}
}

// personFold finds the last thing a person did. Marking is not activity,
// whoever does it, and neither is withdrawing a review request.
type personFold struct {
	w          who
	staleLabel string

	at    time.Time
	login string
}

// add folds in e, with markedAt the mark as it stood before e.
func (p *personFold) add(e Event, markedAt time.Time) {
	if e.Kind == Unlabeled && strings.EqualFold(e.Label, p.staleLabel) && p.w.isSelf(e.Actor) &&
		!markedAt.IsZero() && !p.at.After(markedAt) {
		// We un-staled it for something a person did after the mark that
		// the timeline dates earlier (a push of old commits): our un-stale
		// is the best date it has.
		p.at = e.At
		return
	}
	if e.Kind == CommentDeleted && p.w.isSelf(e.DeletedAuthor) {
		// A maintainer deleted one of our comments: nobody answered the
		// PR. A deleted notice leaves the mark without one, so the author
		// is told again and the close waits a full window (decideStale).
		return
	}
	if !p.w.counts(e) || !isActivity(e, p.staleLabel) {
		return
	}
	p.at, p.login = e.At, e.Actor
	if e.Kind == Committed {
		// GitHub records no pusher: a commit is its GitHub author's when
		// known, otherwise (nearly always, on a PR) the PR author's.
		p.login = p.w.commitLogin(e)
	}
}

// isActivity reports whether e, done by a person, keeps a PR alive.
func isActivity(e Event, staleLabel string) bool {
	switch e.Kind {
	case Other, ReviewRequestRemoved:
		return false
	case Labeled:
		return !strings.EqualFold(e.Label, staleLabel)
	}
	return true
}

// reviewFold collects the reviews that count and the requests still
// pending. A bot is never pending (a request of Copilot waits on no
// person, and a nudge never mentions a bot), and only maintainers' reviews
// count toward Approved, as in GitHub's reviewDecision.
type reviewFold struct {
	w       who
	pending []string
	reviews []Review
	// withdrew are the reviewers who withdrew their own review request
	// (Activity.Withdrew) with nobody asked, and no maintainer's review,
	// since.
	withdrew []string
}

func (r *reviewFold) add(e Event) {
	switch e.Kind {
	case ReviewRequested:
		if key := requestKey(e); key != "" && !r.w.reviewerBot(e) && !ContainsFold(r.pending, key) {
			r.pending = append(r.pending, key)
			r.withdrew = nil // someone is asked: the withdrawal is answered
		}
	case ReviewRequestRemoved:
		r.pending = removeFold(r.pending, requestKey(e))
		if r.withdrawsOwn(e) && !ContainsFold(r.withdrew, e.Reviewer) {
			r.withdrew = append(r.withdrew, e.Reviewer)
		}
	case Reviewed:
		r.pending = removeFold(r.pending, e.Actor)
		if r.w.isBot(e) || r.w.isAuthor(e.Actor) || !r.w.maintainer(e) {
			return // a bot's or a stranger's review fulfils no team's request and decides nothing
		}
		r.withdrew = nil // a maintainer reviewed after all
		r.reviews = append(r.reviews, Review{Reviewer: e.Actor, State: e.ReviewState, At: e.At})
		// GitHub fulfils a team's request with a member's review; we cannot
		// read membership, so a maintainer's review does.
		r.pending = removeTeams(r.pending)
	}
}

// withdrawsOwn reports whether e is a person withdrawing the review
// requested of them ("not me"): they said the PR does not wait on them. A
// team's request has nobody to withdraw it as its own; a request someone
// else removed is a move, not a withdrawal.
func (r *reviewFold) withdrawsOwn(e Event) bool {
	return e.Team == "" && e.Reviewer != "" && strings.EqualFold(e.Actor, e.Reviewer) && r.w.isPerson(e) && !r.w.isAuthor(e.Actor)
}

// closeFold follows closes and reopenings.
type closeFold struct {
	w          who
	closedAt   time.Time // the last close with no reopening after it
	reopenedAt time.Time
	bySelf     bool // the last close was ours, after our closing comment
	byBot      bool // the last close was a bot's
}

// add folds in e, with closeNoticeAt our closing comment for the mark.
func (c *closeFold) add(e Event, closeNoticeAt time.Time) {
	switch e.Kind {
	case Closed:
		c.closedAt = e.At
		c.bySelf = c.w.isSelf(e.Actor) && !closeNoticeAt.IsZero()
		c.byBot = c.w.isBot(e)
	case Reopened:
		c.closedAt, c.reopenedAt = time.Time{}, e.At
	}
}

// explain folds in an updated_at that a PR's whole history cannot explain:
// when it lies after every event (and creation) by more than updateSlack,
// something happened that the timeline does not date (a push of commits made
// long ago, an edit), and in doubt it was a person. A PR without updated_at
// (no listing) has nothing to explain.
func explain(a Activity, pr PR) Activity {
	updatedAt := pr.UpdatedAt
	if updatedAt.IsZero() {
		return a
	}
	if a.PushedAfterMark && !a.LastPersonAt.After(a.MarkedAt) {
		// A person pushed after the mark, when exactly the timeline cannot
		// tell: no later than updated_at.
		a.LastPersonAt, a.LastPersonLogin = updatedAt, pr.Author
	}
	if updatedAt.Sub(Later(a.LastEventAt, pr.CreatedAt)) > updateSlack && updatedAt.After(a.LastPersonAt) {
		a.LastPersonAt, a.LastPersonLogin = updatedAt, ""
		a.LastEventAt = updatedAt
	}
	return a
}

// pushedSinceMark reports, from a history that names commits' parents (the
// REST timeline's), whether commits that no bot made reached the PR
// after its mark, whose head commit our notice recorded. GitHub dates a
// commit by its git date, so a push of old commits hides among the
// timeline's dates; the commits' parents do not lie. A commit pushed on top
// of the mark's head descends from it. (Commits a force push left behind
// descend from nothing we know and are ignored; a force push after the mark
// is a dated event of its own.)
func pushedSinceMark(events []Event, markHead string, counts func(Event) bool) bool {
	if markHead == "" {
		return false
	}
	var commits []Event
	for _, e := range events {
		if e.Kind == Committed && e.SHA != "" && e.SHA != markHead {
			commits = append(commits, e)
		}
	}
	after := map[string]bool{markHead: true} // markHead and what descends from it
	for grew := true; grew; {
		grew = false
		for _, c := range commits {
			if after[c.SHA] || !childOf(c, after) {
				continue
			}
			after[c.SHA], grew = true, true
			if counts(c) {
				return true
			}
		}
	}
	return false
}

// childOf reports whether one of commit c's parents is in set: a commit
// descends from the mark when one of its parents does, a merge too.
func childOf(c Event, set map[string]bool) bool {
	for _, p := range c.Parents {
		if set[p] {
			return true
		}
	}
	return false
}

// pushedAfterMark is pushedSinceMark where the history proves it. Where it
// cannot (the head moved and only events that do not count are dated
// after the mark), the head's ancestry as far as the sweep read it answers
// (Options.Ancestry). Unread, or read only part of the way, in doubt a
// person pushed, and more says where reading goes on: the head, or the
// commit where the chain read so far ends ("" when the answer is proven).
// Options.AssumeOnlyBots takes what is not read for bots' commits.
func pushedAfterMark(pr PR, events []Event, markHead string, markedAt time.Time, counts func(Event) bool, o Options) (pushed bool, more string) {
	if hasParents(events, markHead) {
		return pushedSinceMark(events, markHead, counts), ""
	}
	pushed, unproven := pushedSinceMarkNoParents(pr, events, markHead, markedAt, counts)
	if !unproven {
		return pushed, ""
	}
	pushed, more = ancestryPushed(pr.HeadSHA, markHead, o.Ancestry, counts)
	if more != "" && o.AssumeOnlyBots {
		return false, ""
	}
	return pushed, more
}

// hasParents reports whether the history names commits' parents (REST's
// timeline did), which pushedSinceMark follows.
func hasParents(events []Event, markHead string) bool {
	for _, e := range events {
		if e.Kind == Committed && e.SHA != "" && e.SHA != markHead && len(e.Parents) > 0 {
			return true
		}
	}
	return false
}

// pushedSinceMarkNoParents answers pushedSinceMark from a history that
// names no parents (GraphQL's): the head is where the mark left it, or it
// moved. When it moved, the commits dated after the mark and the
// force-pushes after it say by whom: one that counts was theirs. A move no
// dated commit explains (old commits pushed, a rewrite) is taken for
// theirs: in doubt, not closed. A move that only events that do not count
// explain is unproven: a person's old commits may lie under a bot's
// commit on top, which only the head's ancestry tells.
func pushedSinceMarkNoParents(pr PR, events []Event, markHead string, markedAt time.Time, counts func(Event) bool) (pushed, unproven bool) {
	if pr.HeadSHA == "" || markHead == "" || strings.EqualFold(pr.HeadSHA, markHead) {
		return false, false
	}
	explained := false
	for _, e := range events {
		if e.Kind != Committed && e.Kind != ForcePushed || e.SHA == markHead || e.At.Before(markedAt.Add(-updateSlack)) {
			continue
		}
		if counts(e) {
			return true, false
		}
		explained = true
	}
	return !explained, explained
}

// Commit is one commit of a PR head's first-parent chain, as the sweep
// read it (Options.Ancestry).
type Commit struct {
	SHA string
	// Parent is its first parent's SHA; "" when it has none. A merge's
	// first parent is the line it was made on (git's order, and GitHub's
	// "Update branch"): its other parents bring in the base branch's
	// commits, which are no push to the PR, and are not followed.
	Parent string
	// Author, Committer are the GitHub logins of its git author and
	// committer ("" when no account matches, as for a bot).
	Author, Committer string
	// Bot: an app authored or committed it, by its git identity.
	Bot bool
}

// event is the commit as a history's Committed event, for who's rules.
func (c Commit) event() Event {
	return Event{Kind: Committed, SHA: c.SHA, Bot: c.Bot, CommitAuthor: c.Author, CommitCommitter: c.Committer}
}

// ancestryPushed walks chain (head first) from head back to the mark's
// head through first parents and commits that do not count: reaching it,
// only they moved the head. A commit that counts, or a root, is a
// person's push; so is, in doubt, a chain that ends before the mark's
// head (a rewrite, a merge made on another line, more commits than were
// read), and more names the commit it ends at, whose ancestry would tell.
func ancestryPushed(head, markHead string, chain []Commit, counts func(Event) bool) (pushed bool, more string) {
	read := make(map[string]Commit, len(chain))
	for _, c := range chain {
		read[strings.ToLower(c.SHA)] = c
	}
	cur := head
	for range len(chain) + 1 {
		if strings.EqualFold(cur, markHead) {
			return false, ""
		}
		c, ok := read[strings.ToLower(cur)]
		switch {
		case !ok:
			return true, cur
		case c.Parent == "" || counts(c.event()):
			return true, ""
		}
		cur = c.Parent
	}
	return true, "" // a chain that loops
}

func removeFold(list []string, s string) []string {
	out := list[:0]
	for _, v := range list {
		if !strings.EqualFold(v, s) {
			out = append(out, v)
		}
	}
	return out
}

// chronological sorts a copy of events by time. Within one second, label
// changes come first: our notice follows the label it announces, and GitHub
// dates both to the second.
func chronological(events []Event) []Event {
	sorted := append([]Event(nil), events...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		return isLabelChange(a) && !isLabelChange(b)
	})
	return sorted
}

// trustedHistory is events oldest first, each marker trusted only from our
// own identity (trusted): the history the audit and the reopen command
// read a close from.
func (w who) trustedHistory(events []Event) []Event {
	sorted := chronological(events)
	for i := range sorted {
		sorted[i] = w.trusted(sorted[i])
	}
	return sorted
}

func isLabelChange(e Event) bool { return e.Kind == Labeled || e.Kind == Unlabeled }

// TeamPrefix marks a requested team among reviewers ("team:core").
const TeamPrefix = "team:"

func removeTeams(list []string) []string {
	out := list[:0]
	for _, v := range list {
		if !strings.HasPrefix(v, TeamPrefix) {
			out = append(out, v)
		}
	}
	return out
}
