package sweep

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// Outcome is what happened to a PR in a run (in a dry run, what would
// have): the sweep's word, where lifecycle.Action is the rules'. Every
// operation has one, every Item of a Result has one, and the report words
// each from one table keyed by it.
//
// The order of the write outcomes is the order a plan runs in: a capped
// budget goes first to what people wait for (the label off a PR someone
// revived), then to closes, then to telling and marking; the clean-ups come
// after the run's own work.
type Outcome int

const (
	_                 Outcome = iota
	Unstaled                  // a person acted after the mark: the stale label off
	Closed                    // closing comment, then close (or convert to draft), branch
	Notified                  // our label lacked its notice (a run stopped in between): posted
	Marked                    // the stale label, then the notice
	IntakeNotified            // the intake notice: its close counts from it (lifecycle.NotifyIntake)
	Rerequested               // the author answered a change request: its reviewers' review requested again (nudge.go)
	Nudged                    // the review nudge, then review-nudge-label (nudge.go)
	Escalated                 // the nudge went unanswered: the escalation reviewers' review requested, then our comment naming them (nudge.go)
	NudgeLabeled              // the nudge label added (a run stopped after the nudge) or removed (the turn passed)
	TurnLabeled               // a turn label added or removed (author-turn-label, reviewers-turn-label)
	BranchFinished            // we closed it, a stopped run left its branch: deleted, stale label off
	LabelCleaned              // a person closed or merged it: the stale label off
	CloseLabelCleaned         // open again after a stale close: close-pr-label off
	Reopened                  // closed as stale on the reviewers' or maintainers' turn: our comment, labels off, reopened (audit.go)
	ReopenedOnCommand         // its author or a maintainer asked (reopen-command): reopened with its labels, then our answer (command.go)
	CommandAnswered           // a reopen command on a PR whose branch is gone: our answer, how to continue (command.go)
	DuplicateDeleted          // a concurrent run's copy of one of our notices, deleted

	// The dashboard issue's writes (dashboard.go), after the run's own work.
	DashboardCreated         // created, label and markers in one request, then listed again
	DashboardEdited          // its marked block brought up to date
	DashboardDuplicateClosed // a second copy two runs at once created, closed

	// Outcomes that write nothing.
	StillStale         // stale, waiting: with its close date
	Skipped            // exempt, filtered out, or left alone after a fresh read
	Failed             // a read or write failed: left untouched this run
	DashboardUpToDate  // the dashboard issue already says it all
	DashboardLeftAlone // the dashboard issue a person closed or unmarked, or a run that did not see the whole queue
)

// cleanUps are the outcomes that tidy after a close or a reopening.
var cleanUps = []Outcome{BranchFinished, LabelCleaned, CloseLabelCleaned}

// outcomeOf is the operation a rule's decision calls for.
var outcomeOf = map[lifecycle.Action]Outcome{
	lifecycle.Unstale: Unstaled, lifecycle.Close: Closed, lifecycle.Notify: Notified, lifecycle.Mark: Marked,
	lifecycle.NotifyIntake: IntakeNotified,
}

// op is one operation of the plan: the writes for one PR, or one comment,
// and the outcome they reach.
type op struct {
	out     Outcome
	pr      lifecycle.PR
	d       lifecycle.Decision
	act     *lifecycle.Activity  // nil when the listing alone decided
	comment int64                // DuplicateDeleted
	labels  lifecycle.TurnLabels // TurnLabeled
	// reviewers are those whose review Rerequested requests again, or
	// Escalated asks for; busy, the escalation reviewers Escalated does
	// not ask, their GitHub status saying busy.
	reviewers, busy []string
	// refused: those of reviewers GitHub refused to ask (not a
	// collaborator), found when the request was sent (requestReviews).
	refused []string
	// readNow: act comes from a read of this PR alone made just before
	// (the event path's): the re-request need not read it again.
	readNow bool
	audit   *lifecycle.Audit           // Reopened: the close the audit replayed
	command *lifecycle.CommandDecision // ReopenedOnCommand, CommandAnswered: the command decided
	issue   *issueOp                   // the dashboard's operations: the issue, not a PR (dashboard.go)
	// said is what its text says of the PR's people (said.go); why, the
	// reason the text is chosen by where d.Reason says more (an
	// escalation's names whom it asks).
	said said
	why  lifecycle.Reason
}

// afterStop reports whether o is a bounded write after the run's own work (a
// duplicate notice, the dashboard issue): it runs after a stop, and the
// transport alone keeps its budget.
func (o op) afterStop() bool { return o.out == DuplicateDeleted || o.issue != nil }

// issueOp is what a dashboard operation writes, and what its steps learn.
type issueOp struct {
	body string // the body written: the new one, or a duplicate's closing one

	created   api.Issue   // DashboardCreated: the issue GitHub answered with
	createErr error       // and its error, trusted only after listing again
	after     []api.Issue // ours, as the listing after the creation shows them
}

// An operation is a plan of request steps: the reads its writes need (a
// template's timeline, a fresh look at the PR, the branch checks), then the
// writes, in an order a stop between two of them leaves in a state the next
// run recognises and finishes. Its cost is what its steps send at most, so
// the budget check and the requests sent cannot drift apart, and a dry run
// walks the same steps, sending the reads and refusing only the writes.

// request is one kind of request a step sends, as a plan names it.
type request struct {
	name  string
	write bool
	n     int  // requests it sends at most
	posts bool // a comment: this run's notices are read back at its end
	// afterWrite: a read whose answer depends on a write before it (open
	// PRs on a branch, once the PR is closed). A dry run, which did not
	// send that write, cannot ask it truthfully: it counts it as sent, and
	// takes the answer a real run most often gets.
	afterWrite bool
	// now: a fresh read, served by the group read before it (writer.readNow).
	now bool
}

var (
	reqTimeline      = request{name: "GET timeline", n: 1}
	reqPageHistory   = request{name: "history from the page", n: 0}                 // the listing page gave it whole: no request
	reqPullRetry     = request{name: "POST graphql (the PR, before a retry)", n: 0} // sent before a label write's retry only: uncounted, as the retry
	reqHead          = request{name: "GET pull", n: 1}                              // its head branch
	reqBranchInUse   = request{name: "GET pulls ×2", n: 2, afterWrite: true}        // open PRs on the branch: as base, as head
	reqBranchHead    = request{name: "GET ref", n: 1}                               // the commit the branch points at now
	reqAddLabels     = request{name: "POST labels", write: true, n: 1}
	reqSetLabels     = request{name: "PUT labels", write: true, n: 1}
	reqRemoveLabel   = request{name: "DELETE label", write: true, n: 1}
	reqLabelWrite    = request{name: "DELETE label|PUT labels", write: true, n: 1}
	reqComment       = request{name: "POST comment", write: true, n: 1, posts: true}
	reqClose         = request{name: "PATCH issue", write: true, n: 1}
	reqDeleteRef     = request{name: "DELETE ref", write: true, n: 1}
	reqDraft         = request{name: "POST graphql", write: true, n: 1}
	reqDeleteComment = request{name: "DELETE comment", write: true, n: 1}
	reqReopen        = request{name: "PATCH issue (reopen)", write: true, n: 1}
	reqPullRecent    = request{name: "POST graphql (the PR)", n: 1} // the PR and its latest history, afresh
	reqReviewers     = request{name: "POST requested_reviewers", write: true, n: 1}
	reqCollaborators = request{name: "POST graphql (collaborators)", n: 1} // the listing, once a run: its first page
	reqCreateIssue   = request{name: "POST issue", write: true, n: 1}
	reqEditIssue     = request{name: "PATCH issue", write: true, n: 1}
	reqIssuesAgain   = request{name: "GET issues", n: 1, afterWrite: true} // labelled issues, once ours is created
)

// step is one request of an operation. when, if set, is asked just before
// the step: false skips it (what an earlier read showed makes it needless).
type step struct {
	request
	when func() bool
	send func(ctx context.Context) error
	// guard, when set, is the read a write rests on, sent with it: right
	// before the write and again before every retry of it, after every
	// wait (api.Guarded), never between the read and the write. A dry run
	// sends it and refuses the write. errNeedless from it: the step is
	// done without the write.
	guard   *guard
	reserve bool // it may use rate-limit-reserve (api.MayUseReserve)
	// preview, when set, is what a dry run shows in the log instead of
	// sending the write (the dashboard's body).
	preview func() string
}

// guard is a step's guarding read (step.guard).
type guard struct {
	request
	check func(ctx context.Context) error
}

// errNeedless is a guard's answer that its write is not needed (a branch
// gone, or kept for a reason the guard said): the step is done without it.
var errNeedless = errors.New("nothing to write")

// retryGuard guards a write of the whole label set of PR listed (sent,
// computed from *now) whose first try rests on the operation's fresh read
// (a group's, at most MaxFactsAge old; the close's and the reopening's,
// made before their comment): each retry of it, after the wait, reads the
// PR again, alone. The write made by a try GitHub answered 502 to
// after all (its labels, and the state it leaves: closed when it closes)
// is not sent again; a PR whose state or labels changed since that read
// (a label a person added while the run waited) is left for the next run,
// which decides on what happened. open is the PR's state the write
// expects; closes, that it closes the PR.
func (w *writer) retryGuard(listed lifecycle.PR, now *lifecycle.PR, sent func() []string, open, closes bool) *guard {
	tries := 0
	return &guard{request: reqPullRetry, check: func(ctx context.Context) error {
		if tries++; tries == 1 {
			return nil
		}
		got, err := w.readAgain(ctx, listed)
		pr, isOpen := got.PR, got.Open
		switch {
		case err != nil:
			return err
		case sameLabels(pr.Labels, sent()) && isOpen == (open && !closes):
			return errNeedless
		case isOpen && !open:
			return &leftAlone{reason: ReasonReopenedSince}
		case !isOpen && open:
			return &leftAlone{reason: lifecycle.ReasonClosedSince}
		case !sameLabels(pr.Labels, now.Labels):
			return &leftAlone{reason: ReasonChangedSince}
		case closes && w.othersSince(ctx, got.Since):
			// The close's first read left alone a PR with an event since
			// the listing (readBeforeClose); the retry, after its wait,
			// holds it to the same: an author's answer during the wait.
			return &leftAlone{reason: ReasonChangedSince}
		}
		return nil
	}}
}

// othersSince reports whether events hold one that is not the token's own
// (our closing comment, posted before the close, is): one whose actor is
// unknown, or the token's identity unknown, counts.
func (w *writer) othersSince(ctx context.Context, events []lifecycle.Event) bool {
	login, err := w.gh.Viewer(ctx) // the read before named it: no request
	for _, e := range events {
		if err != nil || login == "" || !strings.EqualFold(e.Actor, login) {
			return true
		}
	}
	return false
}

// cost is the number of requests steps send at most: each once, a guarded
// write's read with it (a retry after a refusal is the transport's, as
// any retry is).
func cost(steps []step) int {
	n := 0
	for _, st := range steps {
		n += st.n
		if st.guard != nil {
			n += st.guard.n
		}
	}
	return n
}

// posts reports whether steps post a comment.
func posts(steps []step) bool {
	for _, st := range steps {
		if st.posts {
			return true
		}
	}
	return false
}

// writer builds each operation's request steps: every write is sent from
// here, by the requests of the table above, and a dry run walks the same
// steps refusing only the writes.
type writer struct {
	*settings
	gh writerGitHub

	// history reads a PR's activity for a message that needs it (the
	// sweep's one reading, summarised once a run); wholeListed reports a PR
	// whose listing page gave its whole history, read with no request.
	history     func(context.Context, lifecycle.PR) (lifecycle.Activity, error)
	wholeListed func(number int) bool
	// afterCreate lists the dashboard issues again after a creation, to
	// find a concurrent run's copy (dashboard.go).
	afterCreate func(context.Context, *op) error
	// collaborator tells whether an account is a collaborator of the
	// repository, from the listing read once a run (access.collaborator).
	collaborator func(ctx context.Context, login string) (is, known bool, err error)

	posted       int   // comments posted this run
	draftRefused error // GitHub refused a draft conversion to this token: no more tries

	// The steps of each kind of write, on this writer's requests: the
	// close's (closing), the reviewers' (reviewing), the stale label's
	// (marking).
	closing   *closing
	reviewing *reviewing
	marking   *marking

	// ahead are the plan's operations from the one running on; wrote, the
	// writes sent (or refused in a dry run) so far; facts, the PRs the last
	// fresh read found (fresh.go).
	ahead []op
	wrote int
	facts facts
	// deleted is the head branch this run deleted, by PR: its Item says so.
	deleted map[int]string
}

// closing builds a close's steps: the read before it, the closing comment,
// the close or the draft conversion, the branch deletion, and the
// close-pr-label's clean-up.
type closing struct{ *writer }

// reviewing builds the steps that ask reviewers: the nudge, the
// re-request, the escalation, and the turn labels.
type reviewing struct{ *writer }

// marking builds the stale label's steps: the mark and its notice, and the
// un-stale.
type marking struct{ *writer }

// steps expands an operation into its requests. Steps may fill o (the
// activity a template needs) for the steps after them.
func (w *writer) steps(o *op) []step {
	n := o.pr.Number
	stale := labelAsOn(o.pr, w.pol.StaleLabel)
	switch o.out {
	case Marked:
		return w.marking.markSteps(o)
	case Notified:
		return w.marking.noticeSteps(o, o.d.MarkedAt)
	case IntakeNotified:
		return []step{w.comment(o.pr.Number, func() string {
			return notice.Body(notice.Render(w.text(o, notice.KindIntake), w.vars(*o)), notice.IntakeMarker())
		})}
	case Unstaled:
		return w.marking.unstaleSteps(o)
	case Closed:
		if w.pol.CloseAction == lifecycle.CloseToDraft {
			return w.closing.draftSteps(o)
		}
		return w.closing.closeSteps(o)
	case BranchFinished:
		return append(w.closing.branchSteps(n), w.removeLabel(n, stale))
	case LabelCleaned:
		return []step{w.removeLabel(n, stale)}
	case CloseLabelCleaned:
		return w.closing.closeLabelSteps(o)
	case DuplicateDeleted:
		// A copy of our own notice, a bounded clean-up that keeps the
		// one-notice promise: it may use rate-limit-reserve.
		return []step{{request: reqDeleteComment, reserve: true, send: func(ctx context.Context) error {
			return w.gh.DeleteComment(ctx, o.comment)
		}}}
	case Rerequested:
		return w.reviewing.rerequestSteps(o)
	case Nudged, NudgeLabeled:
		return w.reviewing.nudgeSteps(o)
	case Escalated:
		return w.reviewing.escalateSteps(o)
	case TurnLabeled:
		return w.reviewing.turnLabelSteps(o)
	case Reopened:
		return w.reopenSteps(o)
	case ReopenedOnCommand, CommandAnswered:
		return w.commandSteps(o)
	case DashboardCreated:
		return w.createDashboardSteps(o)
	case DashboardEdited:
		return []step{w.editIssue(o, o.issue.body, false)}
	case DashboardDuplicateClosed:
		return []step{w.editIssue(o, o.issue.body, true)}
	}
	return nil
}

func (w *writer) removeLabel(n int, label string) step {
	return step{request: reqRemoveLabel, send: func(ctx context.Context) error { return w.gh.RemoveLabel(ctx, n, label) }}
}

func (w *writer) addLabels(n int, labels []string) step {
	return step{request: reqAddLabels, send: func(ctx context.Context) error { return w.gh.AddLabels(ctx, n, labels) }}
}

// setLabels replaces PR n's labels with what labels gives when the step is
// sent, guarded by g: after the fresh read that the set is computed from.
func (w *writer) setLabels(n int, labels func() []string, g *guard) step {
	return step{request: reqSetLabels, guard: g, send: func(ctx context.Context) error { return w.gh.SetLabels(ctx, n, nonNil(labels())) }}
}

// markSteps puts the label first, then the notice. A crash before the notice leaves
// a labelled PR without notice, which the next run recognises and
// completes.
func (w *marking) markSteps(o *op) []step {
	steps := w.detailSteps(o, w.text(o, notice.KindStale))
	n := o.pr.Number
	if want := without(o.pr.Labels, w.cfg.LabelsToRemoveWhenStale); len(want) == len(o.pr.Labels) {
		steps = append(steps, w.addLabels(n, []string{w.pol.StaleLabel}))
	} else {
		// labels-to-remove-when-stale: the PUT replaces the whole set, so
		// it is computed from a fresh read, not from a listing minutes
		// old: a label a person added since stays on; a retry reads again.
		var now lifecycle.PR
		labels := func() []string {
			return union(without(now.Labels, w.cfg.LabelsToRemoveWhenStale), []string{w.pol.StaleLabel})
		}
		steps = append(steps, w.readOpen(n, &now, nil), w.setLabels(n, labels, w.retryGuard(o.pr, &now, labels, true, false)))
	}
	return append(steps, w.noticeSteps(o, w.now)...)
}

// noticeSteps post the stale notice, when there is one.
func (w *marking) noticeSteps(o *op, markedAt time.Time) []step {
	text := w.text(o, notice.KindStale)
	if text == "" {
		return nil
	}
	return []step{w.comment(o.pr.Number, func() string {
		return notice.Body(notice.Render(text, w.vars(*o)), notice.StaleMarker(markedAt, o.pr.HeadSHA))
	})}
}

// comment posts the body built just before it is sent (after the reads
// that fill its template).
func (w *writer) comment(n int, body func() string) step {
	return step{request: reqComment, send: func(ctx context.Context) error {
		err := w.gh.PostComment(ctx, n, body())
		if err == nil {
			w.posted++
		}
		return err
	}}
}

// detailSteps read the PR's timeline when a message needs it and the
// decision came from the listing alone ({{reviewers}}, and
// {{days-inactive}} when closing: updated_at is then our own mark).
func (w *writer) detailSteps(o *op, tmpl string) []step {
	// A marked PR's close counts its days inactive from a person's last
	// action, which our mark hid from updated_at; a PR closed unmarked has
	// them from the decision.
	closingMarked := o.out == Closed && !o.d.MarkedAt.IsZero()
	if o.act != nil || tmpl == "" || !(notice.Uses(tmpl, "reviewers") || closingMarked && notice.Uses(tmpl, "days-inactive")) {
		return nil
	}
	read := reqTimeline
	if w.wholeListed(o.pr.Number) {
		// The listing's page gave the whole history: summarised when the
		// step runs, with no request (who the token acts as, when a marker
		// needs it, came with the page too). Counting a read here would
		// make the real run, which learns who it is only when a history
		// needs it, dearer than its dry run, which learns it at its first
		// refused comment.
		read = reqPageHistory
	}
	return []step{{request: read, send: func(ctx context.Context) error {
		act, err := w.history(ctx, o.pr)
		if err == nil {
			o.act = &act
			o.said = sayOf(o.pr, o.act, o.d.Rule, w.now, w.pol) // the reviewers the text names are known now
		}
		return err
	}}}
}

// unstaleSteps take the stale label off. Removing that one label is right
// whatever happened since the listing. Replacing the label set
// (labels-to-add-when-unstale, labels-to-remove-when-unstale) is not: it
// would undo a concurrent run's close (its close-pr-label) or a label a
// person added meanwhile. The PR is read again right before that write (and
// before every retry of it), and the set is computed from what it carries now.
func (w *marking) unstaleSteps(o *op) []step {
	n := o.pr.Number
	if !w.unstaleSetsLabels() {
		return []step{w.removeLabel(n, labelAsOn(o.pr, w.pol.StaleLabel))}
	}
	var now lifecycle.PR
	read := w.readOpen(n, &now, func(got Now) error {
		if !got.PR.HasLabel(w.pol.StaleLabel) {
			return &leftAlone{reason: "stale label already removed"}
		}
		return nil
	})
	drop := append([]string{w.pol.StaleLabel}, w.cfg.LabelsToRemoveWhenUnstale...)
	want := func() []string { return union(without(now.Labels, drop), w.cfg.LabelsToAddWhenUnstale) }
	write := step{request: reqLabelWrite, guard: w.retryGuard(o.pr, &now, want, true, false), send: func(ctx context.Context) error {
		want := want()
		if removed := without(now.Labels, want); len(removed) == 1 && len(want) == len(now.Labels)-1 {
			return w.gh.RemoveLabel(ctx, n, removed[0])
		}
		return w.gh.SetLabels(ctx, n, want)
	}}
	return []step{read, write}
}

// readOpen reads PR n afresh into now, for a label write that a listing
// minutes old cannot justify: a PR closed since is left alone, and check
// (when set) may leave it alone for what it shows. The read is a group's
// (writer.readNow): the PRs about to be written to, in one query.
func (w *writer) readOpen(n int, now *lifecycle.PR, check func(Now) error) step {
	return step{request: reqNow, send: func(ctx context.Context) error {
		got, err := w.readNow(ctx, n)
		switch {
		case err != nil:
			return err
		case !got.Open:
			return &leftAlone{reason: lifecycle.ReasonClosedSince}
		}
		if check != nil {
			if err := check(got); err != nil {
				return err
			}
		}
		*now = got.PR
		return nil
	}}
}

// unstaleSetsLabels reports whether an un-stale changes more labels than the stale one.
func (w *marking) unstaleSetsLabels() bool {
	return len(w.cfg.LabelsToAddWhenUnstale)+len(w.cfg.LabelsToRemoveWhenUnstale) > 0
}

// closeSteps read the PR afresh, post the closing comment, then one
// request closes and swaps the stale label for close-pr-label, so "stale"
// always means open and stale. That request replaces the whole label set,
// so the set is computed from the fresh read, not from a listing minutes
// old: a label a person added since would be lost (readBeforeClose).
// With delete-branch the stale label stays on until the branch is gone: a
// stop in between leaves a closed PR with the label, which the next run's
// clean-up recognises as closed by us and finishes.
func (w *closing) closeSteps(o *op) []step {
	n := o.pr.Number
	now := o.pr
	steps := append([]step{w.readBeforeClose(o, &now)}, w.closingCommentSteps(o)...)
	if !w.cfg.DeleteBranch {
		return append(steps, w.closeIssue(o.pr, &now, func() []string { return w.closedLabels(now) }))
	}
	stale := labelAsOn(o.pr, w.pol.StaleLabel)
	steps = append(steps, w.closeIssue(o.pr, &now, func() []string { return union(w.closedLabels(now), []string{stale}) }))
	steps = append(steps, w.branchSteps(n)...)
	return append(steps, w.removeLabel(n, stale))
}

// ReasonReopenedSince: a PR a write expected closed is open again since
// it was listed (the audit's and the reopen command's reopenings, a close's
// retry): the next run decides it.
const ReasonReopenedSince lifecycle.Reason = "open again since it was listed"

// ReasonRequestedSince is the reason a re-request was left alone: a fresh
// read found a review, or a request of the reviewers, since the listing.
const ReasonRequestedSince lifecycle.Reason = "the review was requested again, or given, since the listing"

// ReasonChangedSince: a PR due to close changed after it was listed (a
// comment, a label, the stale label taken off): the next run decides it
// on what happened.
const ReasonChangedSince lifecycle.Reason = "changed since it was listed"

// readBeforeClose reads PR n afresh into now before a close, which writes
// its whole label set. A PR closed since, kept since (an exempt label, a
// lock), whose stale label a person took off, or updated at all since the
// listing (its updatedAt, or an event in its timeline) is left alone:
// whatever happened is the next run's to decide, and in doubt nothing
// closes. Only an update time on both reads proves the PR unchanged: one
// GitHub answered null (a zero time, after nothing) proves nothing, and the
// PR is kept for the next run as a failed read keeps it.
func (w *closing) readBeforeClose(o *op, now *lifecycle.PR) step {
	listed := o.pr
	return w.readOpen(listed.Number, now, func(got Now) error {
		pr := got.PR
		if r, kept := lifecycle.Kept(pr, w.pol); kept {
			return &leftAlone{reason: r}
		}
		switch {
		case listed.HasLabel(w.pol.StaleLabel) && !pr.HasLabel(w.pol.StaleLabel):
			return &leftAlone{reason: ReasonChangedSince}
		case pr.UpdatedAt.IsZero() || listed.UpdatedAt.IsZero():
			return fmt.Errorf("read #%d: GitHub's answer does not say when it was last updated, so nothing shows it unchanged since the listing: not closed this run", listed.Number)
		case pr.UpdatedAt.After(listed.UpdatedAt) || len(got.Since) > 0:
			return &leftAlone{reason: ReasonChangedSince}
		}
		return nil
	})
}

// closeIssue closes PR n and sets its labels in one request, computed from
// *now; a retry reads the PR again first (retryGuard).
func (w *closing) closeIssue(listed lifecycle.PR, now *lifecycle.PR, labels func() []string) step {
	return step{request: reqClose, guard: w.retryGuard(listed, now, labels, true, true), send: func(ctx context.Context) error {
		return w.gh.Close(ctx, listed.Number, nonNil(labels()))
	}}
}

// draftSteps are close-action: draft. The conversion comes first: GitHub
// refuses it to a workflow's GITHUB_TOKEN, and then nothing else may happen
// to the PR (no closing comment for a conversion that did not take place).
// A run stopped after it leaves a stale-labelled draft, which the next run
// decides again and finishes: comment (once), then the labels.
func (w *closing) draftSteps(o *op) []step {
	n := o.pr.Number
	convert := step{request: reqDraft,
		when: func() bool { return !o.pr.Draft || w.draftRefused != nil },
		send: func(ctx context.Context) error {
			if w.draftRefused != nil {
				return w.draftRefused
			}
			if err := w.gh.ConvertToDraft(ctx, o.pr.NodeID); err != nil {
				if errors.Is(err, api.ErrDraftForbidden) {
					w.draftRefused = fmt.Errorf("not converted: %w", api.ErrDraftForbidden)
				}
				return fmt.Errorf("convert #%d to draft: %w", n, err)
			}
			return nil
		}}
	now := o.pr
	steps := append([]step{w.readBeforeClose(o, &now), convert}, w.closingCommentSteps(o)...)
	labels := func() []string { return w.closedLabels(now) } // from the fresh read: the PUT replaces them all
	return append(steps, w.setLabels(n, labels, w.retryGuard(o.pr, &now, labels, true, false)))
}

// closingCommentSteps post the closing comment, unless a stopped run
// posted it.
func (w *closing) closingCommentSteps(o *op) []step {
	rule, _ := lifecycle.RuleNamed(o.d.Rule)
	text := w.text(o, rule.ClosingText())
	if text == "" || o.d.CloseNoticePosted {
		return nil
	}
	return append(w.detailSteps(o, text), w.comment(o.pr.Number, func() string {
		return notice.Body(notice.Render(text, w.vars(*o)), notice.CloseMarker(o.d.Rule))
	}))
}

// closedLabels are a closed PR's labels: close-pr-label instead of stale.
func (w *closing) closedLabels(pr lifecycle.PR) []string {
	labels := without(pr.Labels, []string{w.pol.StaleLabel})
	if w.cfg.CloseLabel != "" {
		labels = union(labels, []string{w.cfg.CloseLabel})
	}
	return nonNil(labels)
}

// branchSteps delete the head branch of a PR stalepr closed, only when it
// lives in this repository (deleting by name in a fork's case would hit a
// same-named branch of ours), is not the default branch, no open PR uses
// it (GitHub closes a PR whose base branch is deleted, and a stacked PR's
// base is another PR's head), and it still points at the PR's head commit:
// GitHub does not move a closed PR's head when its branch is pushed, so a
// branch that moved since holds work that is not the PR stalepr closed (a
// deletion a stopped run left, finished a day later, after the author
// pushed). That last read guards the deletion: it comes right before it,
// and again before every retry of it.
func (w *closing) branchSteps(n int) []step {
	var ref, sha string // the branch, once the head read shows it may go, and the PR's head commit
	head := step{request: reqHead, send: func(ctx context.Context) error {
		h, err := w.gh.PullHead(ctx, n)
		if err != nil {
			return fmt.Errorf("closed, but not deleting its branch: %w", err)
		}
		if h.SameRepo && h.Ref != "" && h.SHA != "" && h.DefaultBranch != "" && !strings.EqualFold(h.Ref, h.DefaultBranch) {
			ref, sha = h.Ref, h.SHA
		}
		return nil
	}}
	inUse := step{request: reqBranchInUse, when: func() bool { return ref != "" }, send: func(ctx context.Context) error {
		used, err := w.gh.BranchInUse(ctx, ref)
		if err != nil {
			return fmt.Errorf("closed, but not deleting its branch: %w", err)
		}
		if used {
			w.log.Printf("#%d: branch %q kept: an open pull request is based on it or uses it", n, ref)
			ref = ""
		}
		return nil
	}}
	// The branch's commit guards its deletion: read right before the
	// DELETE, and again before each retry of it (a 502, a secondary
	// limit), so a person's push during the wait keeps the branch.
	at := &guard{request: reqBranchHead, check: func(ctx context.Context) error {
		now, exists, err := w.gh.BranchHead(ctx, ref)
		switch {
		case err != nil:
			return fmt.Errorf("closed, but not deleting its branch: %w", err)
		case !exists:
			return errNeedless // gone already (our own DELETE of a try whose answer was lost, too)
		case !strings.EqualFold(now, sha):
			w.log.Printf("#%d: branch %q kept: it has commits the pull request does not (pushed after the close)", n, ref)
			return errNeedless
		}
		return nil
	}}
	del := step{request: reqDeleteRef, guard: at, when: func() bool { return ref != "" }, send: func(ctx context.Context) error {
		err := w.gh.DeleteBranch(ctx, ref)
		if errors.Is(err, api.ErrBranchKept) {
			w.log.Printf("#%d: closed; its branch was not deleted: %s", n, err)
			return nil
		}
		if err == nil {
			if w.deleted == nil {
				w.deleted = map[int]string{}
			}
			w.deleted[n] = ref
		}
		return err
	}}
	return []step{head, inUse, del}
}

// closeLabelSteps take close-pr-label off a PR that the listing showed
// open. That listing may be minutes old: a concurrent run may have closed
// the PR since, putting the label on for good reason. So the PR is read
// again right before the one write, which removes only that label.
func (w *closing) closeLabelSteps(o *op) []step {
	n := o.pr.Number
	label := w.cfg.CloseLabel
	read := step{request: reqNow, send: func(ctx context.Context) error {
		got, err := w.readNow(ctx, n)
		if err != nil {
			return err
		}
		now := got.PR
		switch {
		case !got.Open:
			return &leftAlone{reason: lifecycle.ReasonClosedSince}
		case now.Locked:
			return &leftAlone{reason: lifecycle.ReasonLocked}
		case now.Draft && w.pol.CloseAction == lifecycle.CloseToDraft:
			return &leftAlone{reason: lifecycle.ReasonDraft}
		case !now.HasLabel(label):
			return &leftAlone{reason: "close-pr-label already removed"}
		}
		label = labelAsOn(now, label)
		return nil
	}}
	write := step{request: reqRemoveLabel, send: func(ctx context.Context) error { return w.gh.RemoveLabel(ctx, n, label) }}
	return []step{read, write}
}

// nudgeSteps post the nudge first and add its label second: a stop in
// between leaves a nudge whose marker stops every later run from posting
// again in this turn, and the next run adds the missing label. A
// concurrent run's copy is found and deleted by the read-back of this
// run's notices (duplicateOps), as for the stale notice.
func (w *reviewing) nudgeSteps(o *op) []step {
	n, label := o.pr.Number, w.pol.NudgeLabel
	if o.out == NudgeLabeled {
		if o.pr.HasLabel(label) {
			return []step{w.removeLabel(n, labelAsOn(o.pr, label))}
		}
		return []step{w.addLabels(n, []string{label})}
	}
	steps := []step{w.comment(n, func() string {
		text := notice.Render(w.text(o, notice.KindNudge), w.vars(*o))
		return notice.Body(strings.TrimSpace(text)+notice.AwayNote(o.said.away, o.said.busy, o.said.withdrew), notice.NudgeMarker())
	})}
	if label != "" && !o.pr.HasLabel(label) {
		steps = append(steps, w.addLabels(n, []string{label}))
	}
	return steps
}

// rerequestSteps request again the review of those whose change request
// the author answered. The PR is read afresh first: a request made since
// the listing (a concurrent run's, the author's) or a review is in its
// latest history, and the reviewers it answers are left out; with none
// left, nothing is written. Our request itself is what makes it once per
// answer: every later run finds it after the answer (DecideRerequest), so
// a stop after the write leaves nothing to finish.
func (w *reviewing) rerequestSteps(o *op) []step {
	n := o.pr.Number
	logins := o.reviewers
	read := step{request: reqPullRecent, send: func(ctx context.Context) error {
		l, open, err := w.gh.Pull(ctx, n, false) // its latest history only: no checks
		switch {
		case err != nil:
			return err
		case l.Err != nil:
			return fmt.Errorf("read #%d: %w", n, l.Err)
		case !open:
			return &leftAlone{reason: lifecycle.ReasonClosedSince}
		}
		var answered []lifecycle.Answered
		if o.act != nil {
			answered = o.act.Answered
		}
		logins = lifecycle.StillUnrequested(logins, answered, l.History)
		if len(logins) == 0 {
			return &leftAlone{reason: ReasonRequestedSince}
		}
		return nil
	}}
	write := step{request: reqReviewers, send: func(ctx context.Context) error {
		o.reviewers = logins
		if err := w.requestReviews(ctx, o); err != nil {
			return err
		}
		if len(o.reviewers) == 0 {
			return &leftAlone{reason: notAsked(o.refused)} // nobody could be asked
		}
		return nil
	}}
	var steps []step
	if slices.ContainsFunc(logins, w.reviewerInput) {
		steps = append(steps, w.collaboratorsOnly(o, &logins))
	}
	if o.readNow {
		// Decided on the same read (Pull) made just before: reading it
		// again would find what DecideRerequest already left out. (The
		// label writes read again all the same: an un-stale before them
		// in the same run changes the labels that read showed.)
		return append(steps, write)
	}
	return append(steps, read, write)
}

// reviewerInput reports whether login is one of the reviewers input's:
// counted as a maintainer without write access, it may be no collaborator.
func (w *reviewing) reviewerInput(login string) bool {
	return lifecycle.ContainsFold(w.pol.Reviewers, login)
}

// collaboratorsOnly leaves out of *logins those of the reviewers input
// the collaborator listing (read once a run) does not hold: GitHub would
// refuse the request, and every later run would send it again, since a
// refused request leaves nothing in the PR's history to tell them. Those
// left out are named in the log and the PR's reason; with nobody left,
// nothing is written. Where GitHub does not give this token the listing,
// only the request tells (requestReviews).
func (w *reviewing) collaboratorsOnly(o *op, logins *[]string) step {
	return step{request: reqCollaborators, send: func(ctx context.Context) error {
		var asked, refused []string
		for _, l := range *logins {
			is, known := true, false
			if w.reviewerInput(l) {
				var err error
				if is, known, err = w.collaborator(ctx, l); err != nil {
					return err
				}
			}
			if known && !is {
				refused = append(refused, l)
			} else {
				asked = append(asked, l)
			}
		}
		if len(refused) == 0 {
			return nil
		}
		*logins, o.refused = asked, refused
		w.log.Printf("#%d: %s", o.pr.Number, notAsked(refused))
		if len(asked) == 0 {
			return &leftAlone{reason: notAsked(refused)} // nobody can be asked
		}
		o.d.Reason += "; " + notAsked(refused)
		return nil
	}}
}

// escalateSteps request the review of the escalation reviewers, then post
// the comment naming them, whose marker makes it once per turn. A stop
// between the two leaves a request without the comment: the next run finds
// no marker and sends both again, and GitHub adds nothing for a reviewer
// requested already. Requesting second would leave, after such a stop, a
// marker that stops every later run while nobody was asked. A concurrent
// run's copy of the comment is deleted by the read-back of this run's
// notices (duplicateOps), as for the nudge.
func (w *reviewing) escalateSteps(o *op) []step {
	n := o.pr.Number
	// Those GitHub refuses to ask are named in the comment, which is
	// posted all the same: its marker ends the turn's escalation, so the
	// refused request is not sent again run after run.
	request := step{request: reqReviewers, send: func(ctx context.Context) error { return w.requestReviews(ctx, o) }}
	return []step{request, w.comment(n, func() string {
		v := w.vars(*o)
		v.Reviewers = o.reviewers
		busy := union(o.said.busy, o.busy) // and the escalation reviewers busy on GitHub
		text := notice.Render(w.text(o, notice.KindEscalation), v)
		return notice.Body(strings.TrimSpace(text)+notice.NotAskedNote(o.said.away, busy, o.said.withdrew, o.refused), notice.EscalateMarker())
	})}
}

// requestReviews requests the review of o.reviewers on o's PR. GitHub
// refuses the whole request when one of them is not a collaborator
// (api.ErrNotCollaborator), naming nobody: then each is asked alone, one
// request each, so those who can be asked are. o.reviewers keeps those
// asked, o.refused the others, named in the log and the PR's reason; a
// refusal is no failure.
func (w *reviewing) requestReviews(ctx context.Context, o *op) error {
	n, logins := o.pr.Number, o.reviewers
	err := w.gh.RequestReviewers(ctx, n, logins)
	if !errors.Is(err, api.ErrNotCollaborator) {
		return err
	}
	var asked, refused []string
	for _, l := range logins {
		if len(logins) == 1 {
			refused = logins // refused alone already
			break
		}
		switch err := w.gh.RequestReviewers(ctx, n, []string{l}); {
		case errors.Is(err, api.ErrNotCollaborator):
			refused = append(refused, l)
		case err != nil:
			return err
		default:
			asked = append(asked, l)
		}
	}
	o.reviewers, o.refused = asked, append(o.refused, refused...)
	w.log.Printf("#%d: %s", n, notAsked(refused))
	o.d.Reason += "; " + notAsked(refused)
	return nil
}

// notAsked says who GitHub refused to ask for a review, and why.
func notAsked(refused []string) lifecycle.Reason {
	return lifecycle.Reason("review not requested of " + strings.Join(refused, ", ") + ": not a collaborator (GitHub requests the review of the repository's collaborators only)")
}

// turnLabelSteps put the turn's label on or take the other off with one
// write; when the turn passed from one labelled party to the other, the PR
// is read again and one request sets its labels as they are now, the one
// swapped for the other (a label a person added meanwhile stays). A stop
// before the write leaves the labels as they were, and the next run reads
// the turn again: no state but the labels themselves. conflict-label goes
// on and comes off with them (in the same write).
func (w *reviewing) turnLabelSteps(o *op) []step {
	n := o.pr.Number
	add, remove := nonEmpty(o.labels.Add, o.labels.AddConflict), nonEmpty(o.labels.Remove, o.labels.RemoveConflict)
	switch {
	case len(remove) == 0:
		return []step{w.addLabels(n, add)}
	case len(add) == 0 && len(remove) == 1:
		return []step{w.removeLabel(n, labelAsOn(o.pr, remove[0]))}
	}
	var now lifecycle.PR
	labels := func() []string { return union(without(now.Labels, remove), add) }
	return []step{w.readOpen(n, &now, nil), w.setLabels(n, labels, w.retryGuard(o.pr, &now, labels, true, false))}
}

// nonEmpty are the labels given that are not "".
func nonEmpty(labels ...string) []string {
	var out []string
	for _, l := range labels {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// leftAlone is an operation that a fresh read just before its write showed
// to be no longer right: nothing was written, and the PR is reported as
// skipped with the reason, not as failed.
type leftAlone struct{ reason lifecycle.Reason }

func (e *leftAlone) Error() string { return string(e.reason) }

func asLeftAlone(err error) (*leftAlone, bool) {
	var la *leftAlone
	ok := errors.As(err, &la)
	return la, ok
}

// outcomeNames name the outcomes in plans and tests (the report's words are
// report's).
var outcomeNames = map[Outcome]string{
	Unstaled: "unstale", Closed: "close", Notified: "notify", Marked: "mark", IntakeNotified: "notify-intake", Rerequested: "rerequest", Nudged: "nudge", Escalated: "escalate",
	NudgeLabeled: "nudge-label", TurnLabeled: "turn-label", BranchFinished: "finish-branch", LabelCleaned: "clean-label",
	CloseLabelCleaned: "clean-close-label", Reopened: "reopen", ReopenedOnCommand: "reopen-on-command", CommandAnswered: "answer-command",
	DuplicateDeleted: "delete-duplicate",
	DashboardCreated: "create-dashboard", DashboardEdited: "edit-dashboard", DashboardDuplicateClosed: "close-dashboard-copy",
	StillStale: "still-stale", Skipped: "skip", Failed: "fail",
	DashboardUpToDate: "dashboard-up-to-date", DashboardLeftAlone: "dashboard-left-alone",
}

// String names the outcome, for plans and test messages.
func (o Outcome) String() string {
	if name, ok := outcomeNames[o]; ok {
		return name
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// reopenSteps reopen a wrongly closed PR: a fresh read (open again since
// the listing: left alone), our comment with its marker, the stale and
// close-pr-label off (an open PR with an old stale label would be closed
// again at once), then the reopening. Every step is safe to stop after: the
// marker after the close tells the next run's audit to finish (no second
// comment), and once the reopening follows the marker the PR is never
// audited again. Two runs at once: the one whose read comes after the
// other's reopening leaves it; copies of the comment are deleted by the
// read-back of this run's notices (duplicateOps), as for the stale notice.
func (w *writer) reopenSteps(o *op) []step {
	n := o.pr.Number
	now := o.pr
	read := step{request: reqNow, send: func(ctx context.Context) error {
		got, err := w.readNow(ctx, n)
		pr := got.PR
		switch {
		case err != nil:
			return err
		case got.Open:
			return &leftAlone{reason: ReasonReopenedSince}
		}
		if r, kept := lifecycle.Kept(pr, w.pol); kept {
			return &leftAlone{reason: r} // locked or exempt since the listing, or by its assignees
		}
		now = pr
		return nil
	}}
	steps := []step{read}
	if o.audit == nil || o.audit.ReopenPostedAt.IsZero() {
		steps = append(steps, w.comment(n, func() string {
			v := w.vars(*o)
			if o.audit != nil {
				v.DaysWaiting = daysSince(o.audit.Turn.Since, o.audit.ClosedAt)
				if o.audit.HumanOfRecord != "" {
					// As the stale notices do (vars): a coding agent's PR
					// answers to its human of record, not the agent.
					v.Author, v.AuthorBot = o.audit.HumanOfRecord, false
				}
			}
			return notice.Body(notice.Render(w.cfg.ReopenMessage, v), notice.ReopenMarker())
		}))
	}
	drop := []string{w.pol.StaleLabel}
	if w.cfg.CloseLabel != "" {
		drop = append(drop, w.cfg.CloseLabel)
	}
	labels := step{request: reqLabelWrite,
		when:  func() bool { return len(without(now.Labels, drop)) < len(now.Labels) },
		guard: w.retryGuard(o.pr, &now, func() []string { return without(now.Labels, drop) }, false, false),
		send: func(ctx context.Context) error {
			want := without(now.Labels, drop)
			if removed := without(now.Labels, want); len(removed) == 1 {
				return w.gh.RemoveLabel(ctx, n, removed[0])
			}
			return w.gh.SetLabels(ctx, n, nonNil(want))
		}}
	reopen := step{request: reqReopen, send: func(ctx context.Context) error { return w.gh.Reopen(ctx, n, nil) }}
	return append(steps, labels, reopen)
}

// commandSteps reopen the PR a command asked for, then answer in the
// command's words (lifecycle.Command's Words, keyed by its reason): a fresh
// read first (unless the event's read was just made), which leaves alone
// a PR open, locked or changed since the listing (its history is decided
// again by the next run); the reopening sets the labels without the stale
// label and close-pr-label in the same request; the answer comes last and
// its marker ends the close's command. A run stopped between the two
// leaves the PR open without the answer, and nothing to finish: reopened,
// it is no closed PR's command any more. The reopening never claims what
// did not happen: GitHub's refusal (a branch deleted since the read) fails
// it before the answer, and the next run answers that the branch is gone.
// Two runs at once may both answer; the read-back of this run's comments
// deletes the younger copy (duplicateOps), as for the stale notice.
func (w *writer) commandSteps(o *op) []step {
	n := o.pr.Number
	now := o.pr
	steps := []step{}
	if !o.readNow {
		steps = append(steps, step{request: reqNow, send: func(ctx context.Context) error {
			got, err := w.readNow(ctx, n)
			switch {
			case err != nil:
				return err
			case got.Open:
				return &leftAlone{reason: ReasonReopenedSince}
			case got.PR.Locked:
				return &leftAlone{reason: lifecycle.ReasonLocked}
			case len(got.Since) > 0:
				return &leftAlone{reason: ReasonChangedSince}
			}
			now = got.PR
			return nil
		}})
	}
	answer := w.comment(n, func() string {
		text := notice.Text(notice.Key{Kind: notice.KindAnswer, Rule: o.command.Command, Reason: o.command.Reason}, "")
		return notice.Body(notice.Answer(text, repositoryURL(o.pr.URL, n), n), notice.AnsweredMarker())
	})
	if o.out == CommandAnswered {
		return append(steps, answer)
	}
	drop := []string{w.pol.StaleLabel}
	if w.cfg.CloseLabel != "" {
		drop = append(drop, w.cfg.CloseLabel)
	}
	reopen := step{request: reqReopen, send: func(ctx context.Context) error {
		return w.gh.Reopen(ctx, n, nonNil(without(now.Labels, drop)))
	}}
	return append(steps, reopen, answer)
}

// repositoryURL is the repository of the pull request at url (its page,
// ".../pull/n"); "origin" when the URL does not say, as a reader's clone
// of it is named.
func repositoryURL(url string, n int) string {
	if repo, ok := strings.CutSuffix(url, "/pull/"+strconv.Itoa(n)); ok && repo != "" {
		return repo
	}
	return "origin"
}

// createDashboardSteps create the issue with its label and markers in one
// request, so it is found from the moment it exists, then list again: an
// answer lost on the way back may hide an issue GitHub created, and a
// concurrent run may have created one too.
func (w *writer) createDashboardSteps(o *op) []step {
	d := o.issue
	create := step{request: reqCreateIssue,
		preview: func() string {
			return fmt.Sprintf("dashboard issue: the body a real run would create %q with:\n%s", w.cfg.DashboardIssue, d.body)
		},
		send: func(ctx context.Context) error {
			created, err := w.gh.CreateIssue(ctx, w.cfg.DashboardIssue, d.body, []string{dashboard.Label})
			if api.IsStop(err) {
				return fmt.Errorf("create the dashboard issue: %w", err)
			}
			d.created, d.createErr = created, err
			o.pr.Number, o.pr.URL = created.Number, created.URL
			return nil
		}}
	relist := step{request: reqIssuesAgain, send: func(ctx context.Context) error { return w.afterCreate(ctx, o) }}
	return []step{create, relist}
}

// editIssue writes a dashboard issue's body, closing it when close is set
// (a duplicate).
func (w *writer) editIssue(o *op, body string, close bool) step {
	n := o.pr.Number
	st := step{request: reqEditIssue, send: func(ctx context.Context) error {
		if err := w.gh.EditIssue(ctx, n, body, close); err != nil {
			return fmt.Errorf("update the dashboard issue #%d: %w", n, err)
		}
		return nil
	}}
	if !close {
		st.preview = func() string {
			return fmt.Sprintf("dashboard issue: the body a real run would write to #%d:\n%s", n, body)
		}
	}
	return st
}

// vars are the placeholders' values in the texts posted on a PR.
func (w *writer) vars(p op) notice.Vars {
	v := notice.Vars{
		Author:          p.said.author,
		AuthorBot:       p.said.authorBot,
		Reviewers:       p.said.reviewers,
		DaysInactive:    daysSince(p.d.InactiveSince, w.now),
		DaysBeforeStale: p.said.daysBeforeStale,
		DaysBeforeClose: p.said.daysBeforeClose,
		CloseDate:       p.d.CloseAt,
		StaleLabel:      w.pol.StaleLabel,
		Labels:          p.pr.Labels,
		ReopenCommand:   w.pol.ReopenCommand,
		ToDraft:         w.pol.CloseAction == lifecycle.CloseToDraft,
	}
	// No bot is ever mentioned: a mention of @Copilot can start the coding
	// agent. A nudge names no bot author at all (pending reviewers hold no
	// bot); the other texts name it without the @.
	if p.out == Nudged && v.AuthorBot {
		v.Author = ""
	}
	if p.act != nil {
		// On the author's turn the clock runs from the author's last
		// action when that is later than the turn's start: the notice's
		// numbers say what the rules counted.
		clock := p.act.Turn.ClockFrom()
		v.DaysWaiting = daysSince(clock, w.now)
		v.TurnSince, v.TurnBy, v.TurnByReview = clock, p.act.Turn.By, p.act.Turn.ByReview
		v.TurnLabel, v.TurnConflict, v.TurnCheck = p.act.Turn.Label, p.act.Turn.Conflict, p.act.Turn.Check
		if p.out == Closed && !p.d.MarkedAt.IsZero() {
			// Our mark and notice are not activity: count from the last
			// thing a person did, or from the PR's creation. A PR closed
			// unmarked has them from the decision, which counted what the
			// rules count (a bot's comment under activity-from anyone, the
			// opening under ignore-updates).
			v.DaysInactive = daysSince(lifecycle.Later(p.pr.CreatedAt, p.act.LastPersonAt), w.now)
		}
	}
	return v
}

// text is the template o posts as kind: the default for the reason it is
// posted for, or the user's own message of that kind (notice.Text).
func (w *writer) text(o *op, kind notice.Kind) string {
	k := notice.KeyOf(kind, o.d)
	if o.why != "" {
		k.Reason = o.why
	}
	own := map[notice.Kind]string{notice.KindStale: w.cfg.StaleMessage, notice.KindClose: w.cfg.CloseMessage, notice.KindNudge: w.cfg.NudgeMessage,
		notice.KindIntake: w.cfg.IntakeMessage, notice.KindIntakeClose: w.cfg.IntakeCloseMessage}
	return notice.Text(k, own[kind])
}
