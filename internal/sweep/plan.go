package sweep

import (
	"context"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Reasons of the clean-up operations (the rules' reasons are lifecycle's);
// ReasonMerged is the audit's too.
const (
	ReasonMerged          lifecycle.Reason = "merged"
	ReasonClosedByPerson  lifecycle.Reason = "closed by a person"
	ReasonClosedBySelf    lifecycle.Reason = "closed earlier by stalepr, whose run stopped before taking the label off"
	ReasonBranchFinishing lifecycle.Reason = "closed earlier by stalepr, whose run stopped before its branch deletion"
	ReasonDuplicate       lifecycle.Reason = "a concurrent run posted the same notice"
)

// Reasons of the executor's stops: an event run's first write refused
// (OneForkPR), and the dashboard issue's update a stop left not reached.
const (
	// ReasonEventReadOnly: GitHub refused the first write of an event run
	// on a fork's PR (GitHub's fork rule for pull_request_review and its
	// kin), so nothing was written.
	ReasonEventReadOnly lifecycle.Reason = "a fork's pull request, and GitHub gave this event's run a read-only token: " +
		"nothing was written; the next scheduled run makes the change"
	ReasonDashboardCancelled lifecycle.Reason = "not updated: the run was cancelled"
)

// planner turns the run's decisions into the operations the executor
// runs (plan.go; the nudges', re-requests', escalations' and turn labels'
// in nudge.go).
type planner struct {
	*settings
	x    *executor // the items it reports
	book *book     // the escalations the pace leaves, told when they go in
}

// plan turns decisions into operations, and returns apart the decisions
// that need no write (skipped, still stale), as the run reports them, and
// the operations the pace left for the next runs.
func (s *planner) plan(decided []planned) (ops []op, kept []Item, left paced) {
	for _, p := range decided {
		if o, ok := rerequestOp(s.settings, p); ok {
			ops = append(ops, o)
			p.nudge = oneNotification(p.nudge)
		}
		if o, ok := nudgeOp(s.settings, p); ok {
			ops = append(ops, o)
		}
		if o, ok := escalateOp(s.settings, p); ok {
			ops = append(ops, o)
		}
		if o, ok := turnLabelOp(s.settings, p); ok {
			ops = append(ops, o)
		}
		if out, ok := outcomeOf[p.d.Action]; ok {
			ops = append(ops, op{out: out, pr: p.pr, d: p.d, act: p.act})
			continue
		}
		it := s.x.item(op{pr: p.pr, d: p.d})
		switch {
		case p.d.Action == lifecycle.Skip:
			it.Outcome = Skipped
			kept = append(kept, it)
		case p.pr.HasLabel(s.pol.StaleLabel):
			it.Outcome = StillStale
			kept = append(kept, it)
		}
	}
	for i := range ops {
		ops[i].said = sayOf(ops[i].pr, ops[i].act, ops[i].d.Rule, s.now, s.pol)
	}
	ops, left.nudges = pace(ops, Nudged, s.cfg.NudgesPerRun, nil)
	ops, left.escalations = pace(ops, Escalated, s.cfg.EscalationsPerRun, s.book.escalationWaits)
	return ops, kept, left
}

// paced counts the operations due that the pace left for the next runs
// (Result.NudgesPaced, EscalationsPaced).
type paced struct{ nudges, escalations int }

// pace keeps the operations of one kind within perRun, those longest on
// the reviewers' turn first: the review nudges (review-nudges-per-run) and
// the escalations (escalations-per-run, apart: an escalation asks the same
// few escalation-reviewers on every PR, so the nudges' cap would still
// flood them). A backlog (the first run with the nudge on, forty PRs
// waiting on one busy reviewer) is spread over the runs after instead of
// landing in inboxes at once. The others wait, due, for the next runs;
// paced counts them, and waits (when set) is told of each with the run
// that sends it at this pace (1: the next), the longest waiting first.
func pace(ops []op, out Outcome, perRun int, waits func(o op, run int)) (kept []op, paced int) {
	var of []int
	for i, o := range ops {
		if o.out == out {
			of = append(of, i)
		}
	}
	if len(of) <= perRun {
		return ops, 0
	}
	since := func(i int) time.Time {
		if a := ops[i].act; a != nil {
			return a.Turn.Since
		}
		return ops[i].pr.CreatedAt
	}
	sort.SliceStable(of, func(a, b int) bool { return since(of[a]).Before(since(of[b])) })
	wait := map[int]bool{}
	for k, i := range of[perRun:] {
		wait[i] = true
		if waits != nil {
			waits(ops[i], 1+k/max(perRun, 1))
		}
	}
	for i, o := range ops {
		if !wait[i] {
			kept = append(kept, o)
		}
	}
	return kept, len(wait)
}

// executor runs the operations of a plan: the one place a run's writes
// are sent from (by the writer's steps), within the budget, refused in a
// dry run, logged, and recorded in the result and the book.
type executor struct {
	*settings
	gh   executorGitHub
	w    *writer
	book *book
	got  tally

	// fork is the head repository of the event's PR when it comes from a
	// fork, on an event GitHub may give a read-only token (OneForkPR);
	// readOnly is set when GitHub refused the run's first write, wrote
	// once one went through.
	fork            string
	readOnly, wrote bool

	firstPost     time.Time
	posts         int            // comments this run tried to post (the end of the run reads them back)
	causes        map[string]int // each failure's cause (failCause) and the first PR that failed with it
	saidCancelled bool           // the log said the run was cancelled, at the first PR not reached
	left          map[int]bool   // the PRs counted in Result.Left: one with two writes not reached is one PR
}

// tally is what the executor's operations came to, in the run's order:
// the items it recorded, its stop and the PRs it did not reach. The run's
// Result is assembled from it (sweeper.finish); no stage writes into that.
type tally struct {
	items, dashboard []Item // Result.Items, Result.Dashboard
	stopped          error  // Result.Stopped
	left             int    // counted in Result.Left
	leftBy           map[Outcome]int
	wouldSend        int // Result.WouldSend
}

// apply runs a plan, in outcome order: the one executor of the sweep's
// writes. The budget, the dry run, logging, stopping and failures are
// handled here, once (the transport paces the writes and stays the last
// guard of the budget).
func (x *executor) apply(ctx context.Context, ops []op) {
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].out < ops[j].out })
	for i := range ops {
		x.w.ahead = ops[i:]
		x.execute(ctx, &ops[i])
		x.w.facts.done(ops[i].pr.Number)
	}
	x.w.ahead = nil
}

// execute runs one operation's steps, once the budget pays for all of
// them: a run never stops half-way through an operation for want of
// requests.
func (x *executor) execute(ctx context.Context, o *op) {
	if x.readOnly {
		return // the PR is reported skipped once, at the refusal
	}
	if x.got.stopped != nil && !o.afterStop() {
		x.notReached(*o)
		return
	}
	if err := ctx.Err(); err != nil {
		x.stopOn(err)
		x.notReached(*o)
		return
	}
	steps := x.w.steps(o)
	x.w.useFacts(o, steps)
	if err := x.afford(*o, steps); err != nil {
		x.stopOn(err)
		x.notReached(*o)
		return
	}
	wrote, err := x.walk(ctx, steps)
	it := x.item(*o) // after the steps, which may have named the issue they created
	la, alone := asLeftAlone(err)
	firstRefused := !x.wrote && wrote == 0 && errors.Is(err, api.ErrWriteRefused)
	x.wrote = x.wrote || wrote > 0
	switch {
	case err == nil:
		x.done(*o, it)
	case alone:
		it.Outcome, it.Action, it.Reason = Skipped, lifecycle.Skip, la.reason
		x.record(it)
	case x.fork != "" && firstRefused:
		// GitHub's fork rule, not a setup to mend: nothing was written,
		// and nothing more is sent.
		x.readOnly = true
		it.Outcome, it.Action, it.Reason = Skipped, lifecycle.Skip, ReasonEventReadOnly
		x.record(it)
	case o.issue != nil:
		// The dashboard's failure, a stop or a refusal included, is its
		// own: the sweep's work stands, and the run ends with a warning.
		x.failItem(it, err)
	case api.IsStop(err):
		x.stopOn(err)
		x.notReached(*o)
	default:
		it.Partial, it.MaybeWritten = wrote > 0, errors.Is(err, api.ErrOutcomeUnknown)
		x.failItem(it, err)
		if errors.Is(err, api.ErrWriteRefused) && x.got.stopped == nil {
			// Every later write would be refused too: stop rather than
			// spend the run's requests on the same answer.
			x.got.stopped = &WriteRefusedError{Err: err}
			x.log.Printf("stopping: GitHub refused the first write for want of permission; every later write would be refused too")
		}
	}
}

// walk sends an operation's steps in order. A dry run sends the reads and
// refuses the writes (and the reads that only a write makes true). wrote
// is how many writes went through before an error (none in a dry run).
func (x *executor) walk(ctx context.Context, steps []step) (wrote int, err error) {
	for _, st := range steps {
		if st.when != nil && !st.when() {
			continue
		}
		x.tried(st)
		ctx := ctx
		if st.reserve {
			ctx = api.MayUseReserve(ctx)
		}
		dry := (st.write || st.afterWrite) && x.cfg.DebugOnly
		err := x.send(ctx, st, dry)
		if errors.Is(err, errNeedless) {
			continue
		}
		if err != nil {
			return wrote, err
		}
		if st.write && !dry {
			wrote++
		}
	}
	return wrote, nil
}

// send sends one step, or in a dry run refuses it: a guarded write's
// guard is a read, sent all the same, and only a write it lets through is
// refused.
func (x *executor) send(ctx context.Context, st step, dry bool) error {
	switch {
	case dry && st.guard != nil:
		if err := st.guard.check(ctx); err != nil {
			return err
		}
		return x.refuse(ctx, st)
	case dry:
		if st.preview != nil {
			x.log.Printf("%s", st.preview())
		}
		return x.refuse(ctx, st)
	case st.guard != nil:
		return st.send(api.Guarded(ctx, st.guard.check))
	}
	return st.send(ctx)
}

// tried counts a step about to be sent (or refused in a dry run): a
// comment, which the end of the run reads back; a write, paced, which ages
// the facts of the last fresh read (fresh.go).
func (x *executor) tried(st step) {
	if st.posts {
		if x.posts == 0 {
			x.firstPost = x.now
		}
		x.posts++
	}
	if st.write {
		x.w.wrote += st.n
	}
}

// refuse is a dry run's write: not sent, but counted against the budget as
// the real run would count it, so the dry run stops where the real run
// would and reports what it would reach.
func (x *executor) refuse(ctx context.Context, st step) error {
	if st.posts && x.id.login == "" && !x.id.asked && x.gh.WroteAs() == "" {
		// The real run learns who it is from its first comment, at no
		// extra request; the dry run asks. A listing page has usually
		// named the viewer already, and then asking sends nothing: the
		// comment is refused and counted as any write. Only a question
		// sent takes the comment's place in the count.
		before := x.gh.Usage().Requests
		login, err := x.gh.Viewer(ctx)
		if err == nil {
			x.id.asked = true
			x.id.told(login)
			if x.gh.Usage().Requests > before {
				return nil
			}
		}
		if api.IsStop(err) {
			return err
		}
	}
	if err := x.gh.RefuseWrite(ctx, st.n); err != nil {
		return err
	}
	x.got.wouldSend += st.n
	return nil
}

// done records and logs an operation performed (or, in a dry run, one that
// would have been).
func (x *executor) done(o op, it Item) {
	it.Outcome = o.out
	if o.issue == nil && o.out != NudgeLabeled && o.out != TurnLabeled {
		x.book.acted(o)
	}
	x.record(it)
}

// record reports an item and logs it: a PR's goes into Result.Items, the
// dashboard issue's into Result.Dashboard.
func (x *executor) record(it Item) {
	if it.Dashboard {
		x.got.dashboard = append(x.got.dashboard, it)
	} else {
		x.got.items = append(x.got.items, it)
	}
	x.log.PR(it)
}

// item is what the run reports of o's PR: its decision, as the executor
// records it.
func (x *executor) item(p op) Item {
	it := Item{
		Number: p.pr.Number, Title: p.pr.Title, URL: p.pr.URL,
		Action: p.d.Action, Reason: p.d.Reason,
		LastActivity: p.d.InactiveSince, InactiveDays: daysSince(p.d.InactiveSince, x.now),
		OnAuthorsTurn: x.pol.StaleClock == lifecycle.ClockAuthorTurn,
		Unmarked:      p.out == Closed && p.d.MarkedAt.IsZero(),
		CloseAt:       x.pol.Due(p.d.CloseAt, x.now), // a close a quiet period holds: at its end
		Dashboard:     p.issue != nil,
		Branch:        x.w.deleted[p.pr.Number],
	}
	return it
}

func (x *executor) fail(pr lifecycle.PR, err error) {
	x.failItem(Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Skip}, err)
}

// failItem records a PR left untouched because of err. (ghapi keeps the
// token out of every error it returns.)
func (x *executor) failItem(it Item, err error) {
	it.Err, it.Outcome = err.Error(), Failed
	cause := failCause(it)
	if x.causes == nil {
		x.causes = map[string]int{}
	}
	if first, ok := x.causes[cause]; ok {
		it.SameAs = first
	} else {
		x.causes[cause] = it.Number
	}
	x.record(it)
}

// failCause is a failure's error less the PR's own number (in "#12" and
// in a URL's /12/), so that the same answer to the same request on two
// PRs is one cause.
func failCause(it Item) string {
	own := regexp.MustCompile(`([#/])` + strconv.Itoa(it.Number) + `($|[^0-9])`)
	return own.ReplaceAllString(it.Err, "${1}N${2}")
}

// notReached counts a PR the run stopped before.
func (x *executor) notReached(o op) {
	if o.issue != nil {
		it := x.item(o)
		it.Outcome, it.Reason = DashboardLeftAlone, ReasonDashboardCancelled
		x.record(it)
	}
	if o.afterStop() {
		return // not one of the PRs that need work
	}
	if x.left[o.pr.Number] {
		return // counted at its first write, the one that comes first
	}
	if x.left == nil {
		x.left = map[int]bool{}
	}
	x.left[o.pr.Number] = true
	x.got.left++
	if x.got.leftBy == nil {
		x.got.leftBy = map[Outcome]int{}
	}
	x.got.leftBy[o.out]++
	if errors.Is(x.got.stopped, context.Canceled) && !x.saidCancelled {
		// One line, not one per PR: the end of the run counts them.
		x.saidCancelled = true
		x.log.Printf("#%d not reached: the run was cancelled; nor is any pull request after it, all left for the next run", o.pr.Number)
	}
}

// afford says whether the budget pays for an operation's steps, keeping
// what the read-back of this run's notices will need.
func (x *executor) afford(o op, steps []step) error {
	if o.afterStop() {
		// A duplicate's deletion may use rate-limit-reserve, which
		// RequestsLeft keeps out; the dashboard's requests were set aside
		// (dashboard.Cost): the transport enforces operations-per-run and
		// the limit's end.
		return nil
	}
	left := x.gh.RequestsLeft()
	if left < 0 || left >= cost(steps)+x.dedupeReserve(posts(steps)) {
		return nil
	}
	if u := x.gh.Usage(); u.RateRemaining >= 0 && u.RateRemaining-x.cfg.RateLimitReserve <= left {
		return api.RateReserve
	}
	return api.Budget
}

// costOf is the number of requests an operation sends at most: its steps,
// for a PR whose activity the run read (known) or did not.
func (x *executor) costOf(out Outcome, known bool) int {
	o := op{out: out}
	if known {
		o.act = &lifecycle.Activity{}
	}
	return cost(x.w.steps(&o))
}

// need is what an operation on a PR whose timeline was read needs: its
// steps and what must stay unspent after them.
func (x *executor) need(out Outcome) int {
	o := op{out: out, act: &lifecycle.Activity{}}
	steps := x.w.steps(&o)
	return cost(steps) + x.dedupeReserve(posts(steps))
}

// costOfDecision is what a decision will spend: its operation's steps, or
// for NeedDetail the timeline and a mark after it (the likeliest writes).
func (x *executor) costOfDecision(a lifecycle.Action) int {
	if a == lifecycle.NeedDetail {
		return reqTimeline.n + x.costOf(Marked, true)
	}
	if out, ok := outcomeOf[a]; ok {
		return x.costOf(out, false)
	}
	return 0
}

// dedupeReserve is what must stay unspent after an operation (one that
// posts, or any once the run has posted), so the run can still read back
// its notices and find a concurrent run's duplicate.
func (x *executor) dedupeReserve(posting bool) int {
	if !posting && x.posts == 0 {
		return 0
	}
	return 1 + (x.posts+1)/100
}

// stopOn ends the run's writes on the first error that must stop it: a
// limit (an api.Stop), the context's end, or a listing that failed.
func (x *executor) stopOn(err error) {
	if x.got.stopped != nil {
		return
	}
	switch {
	case api.IsStop(err):
		x.got.stopped = err
	default:
		x.got.stopped = &ListingError{Err: err}
		x.log.Printf("stopping: %s", err)
	}
}

// WriteRefusedError is a run's stop on its first write GitHub refused for
// want of permission (api.ErrWriteRefused): the PR is Failed, the rest not
// reached, and the step fails until the token may write.
type WriteRefusedError struct{ Err error }

func (e *WriteRefusedError) Error() string { return "write refused: " + e.Err.Error() }
func (e *WriteRefusedError) Unwrap() error { return e.Err }

// writeRefused is the error of the write GitHub refused for want of
// permission, when that is what stopped the run; nil otherwise.
func writeRefused(stopped error) error {
	var wr *WriteRefusedError
	if errors.As(stopped, &wr) {
		return wr.Err
	}
	return nil
}

// ListingError is a run's stop on a listing that failed: nothing after it
// can be trusted to be complete.
type ListingError struct{ Err error }

func (e *ListingError) Error() string { return "listing failed: " + e.Err.Error() }
func (e *ListingError) Unwrap() error { return e.Err }
