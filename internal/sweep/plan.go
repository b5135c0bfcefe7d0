package sweep

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Reasons of the clean-up operations (the rules' reasons are lifecycle's).
const (
	ReasonClosedByPerson  lifecycle.Reason = "closed by a person"
	ReasonClosedBySelf    lifecycle.Reason = "closed earlier by stalepr, whose run stopped before taking the label off"
	ReasonBranchFinishing lifecycle.Reason = "closed earlier by stalepr, whose run stopped before its branch deletion"
	ReasonDuplicate       lifecycle.Reason = "a concurrent run posted the same notice"
)

// op is one operation of the plan: the writes for one PR, or one comment,
// and the outcome they reach.
type op struct {
	out     Outcome
	pr      lifecycle.PR
	d       lifecycle.Decision
	act     *lifecycle.Activity  // nil when the listing alone decided
	comment int64                // DuplicateDeleted
	labels  lifecycle.TurnLabels // TurnLabeled
	audit   *lifecycle.Audit     // Reopened: the close the audit replayed
	issue   *issueOp             // the dashboard's operations: the issue, not a PR (dashboard.go)
}

// bounded reports whether o is a bounded write after the run's own work (a
// duplicate notice, the dashboard issue): it runs after a stop, and the
// transport alone keeps its budget.
func (o op) bounded() bool { return o.out == DuplicateDeleted || o.issue != nil }

// plan turns decisions into operations; the decisions that need no write
// (skipped, kept, still stale) go straight into the result.
func (s *sweeper) plan(decided []planned) []op {
	var ops []op
	for _, p := range decided {
		if o, ok := s.nudgeOp(p); ok {
			ops = append(ops, o)
		}
		if o, ok := s.turnLabelOp(p); ok {
			ops = append(ops, o)
		}
		if out, ok := outcomeOf[p.d.Action]; ok {
			ops = append(ops, op{out: out, pr: p.pr, d: p.d, act: p.act})
			continue
		}
		it := s.item(op{pr: p.pr, d: p.d})
		switch {
		case p.d.Action == lifecycle.Skip:
			it.Outcome = Skipped
			s.res.Items = append(s.res.Items, it)
		case p.pr.HasLabel(s.pol.StaleLabel):
			it.Outcome = StillStale
			s.res.Items = append(s.res.Items, it)
		}
	}
	return s.paceNudges(ops)
}

// paceNudges keeps the review nudges within review-nudges-per-run, those
// longest on the reviewers' turn first: a backlog's nudges (the first run
// with the nudge on) are spread over the runs after instead of landing in
// the reviewers' inboxes at once. The others wait, due, for the next run.
func (s *sweeper) paceNudges(ops []op) []op {
	var nudges []int
	for i, o := range ops {
		if o.out == Nudged {
			nudges = append(nudges, i)
		}
	}
	if len(nudges) <= s.cfg.NudgesPerRun {
		return ops
	}
	since := func(i int) time.Time {
		if a := ops[i].act; a != nil {
			return a.Turn.Since
		}
		return ops[i].pr.CreatedAt
	}
	sort.SliceStable(nudges, func(a, b int) bool { return since(nudges[a]).Before(since(nudges[b])) })
	wait := map[int]bool{}
	for _, i := range nudges[s.cfg.NudgesPerRun:] {
		wait[i] = true
	}
	s.res.NudgesPaced = len(wait)
	kept := ops[:0]
	for i, o := range ops {
		if !wait[i] {
			kept = append(kept, o)
		}
	}
	return kept
}

// apply runs a plan, in outcome order: the one executor of the sweep's
// writes. The budget, the dry run, logging, stopping and failures are
// handled here, once (the transport paces the writes and stays the last
// guard of the budget).
func (s *sweeper) apply(ctx context.Context, ops []op) {
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].out < ops[j].out })
	for i := range ops {
		s.execute(ctx, &ops[i])
	}
}

// execute runs one operation's steps, once the budget pays for all of
// them: a run never stops half-way through an operation for want of
// requests.
func (s *sweeper) execute(ctx context.Context, o *op) {
	if s.res.Stopped != nil && !o.bounded() {
		s.notReached(*o)
		return
	}
	if err := ctx.Err(); err != nil {
		s.stopOn(err)
		s.notReached(*o)
		return
	}
	steps := s.w.steps(o)
	if err := s.afford(*o, steps); err != nil {
		s.stopOn(err)
		s.notReached(*o)
		return
	}
	err := s.walk(ctx, steps)
	it := s.item(*o) // after the steps, which may have named the issue they created
	la, alone := asLeftAlone(err)
	switch {
	case err == nil:
		s.done(*o, it)
	case alone:
		it.Outcome, it.Action, it.Reason = Skipped, lifecycle.Skip, la.reason
		s.record(it)
	case o.issue != nil:
		// The dashboard's failure, a stop or a refusal included, is its
		// own: the sweep's work stands, and the run ends with a warning.
		s.failItem(it, err)
	case api.IsStop(err):
		s.stopOn(err)
		s.notReached(*o)
	default:
		s.failItem(it, err)
		if errors.Is(err, api.ErrWriteRefused) && s.res.Stopped == nil {
			// Every later write would be refused too: stop rather than
			// spend the run's requests on the same answer.
			s.res.Stopped = &WriteRefusedError{Err: err}
			s.log.Printf("stopping: GitHub refused the first write for want of permission; every later write would be refused too")
		}
	}
}

// walk sends an operation's steps in order. A dry run sends the reads and
// refuses the writes (and the reads that only a write makes true).
func (s *sweeper) walk(ctx context.Context, steps []step) error {
	for _, st := range steps {
		if st.when != nil && !st.when() {
			continue
		}
		if st.posts {
			if s.posts == 0 {
				s.firstPost = s.now
			}
			s.posts++ // tried: the end of the run reads back what it posted
		}
		ctx := ctx
		if st.reserve {
			ctx = api.MayUseReserve(ctx)
		}
		var err error
		if (st.write || st.afterWrite) && s.cfg.DebugOnly {
			if st.preview != nil {
				s.log.Printf("%s", st.preview())
			}
			err = s.refuse(ctx, st)
		} else {
			err = st.send(ctx)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// refuse is a dry run's write: not sent, but counted against the budget as
// the real run would count it, so the dry run stops where the real run
// would and reports what it would reach.
func (s *sweeper) refuse(ctx context.Context, st step) error {
	if st.posts && s.id.login == "" && !s.id.asked && s.gh.WroteAs() == "" {
		// The real run learns who it is from its first comment, at no
		// extra request; the dry run asks. A listing page has usually
		// named the viewer already, and then asking sends nothing: the
		// comment is refused and counted as any write. Only a question
		// sent takes the comment's place in the count.
		before := s.gh.Usage().Requests
		login, err := s.gh.Viewer(ctx)
		if err == nil {
			s.id.asked = true
			s.id.told(login)
			if s.gh.Usage().Requests > before {
				return nil
			}
		}
		if api.IsStop(err) {
			return err
		}
	}
	if err := s.gh.RefuseWrite(ctx, st.n); err != nil {
		return err
	}
	s.res.WouldSend += st.n
	return nil
}

// done records and logs an operation performed (or, in a dry run, one that
// would have been).
func (s *sweeper) done(o op, it Item) {
	it.Outcome = o.out
	if o.issue == nil && o.out != NudgeLabeled && o.out != TurnLabeled {
		s.book.acted(o)
	}
	s.record(it)
}

// record reports an item and logs it: a PR's goes into Result.Items, the
// dashboard issue's into Result.Dashboard.
func (s *sweeper) record(it Item) {
	if it.Dashboard {
		s.res.Dashboard = append(s.res.Dashboard, it)
	} else {
		s.res.Items = append(s.res.Items, it)
	}
	s.log.PR(it)
}

// notReached counts a PR the run stopped before.
func (s *sweeper) notReached(o op) {
	if o.issue != nil {
		it := s.item(o)
		it.Outcome, it.Reason = DashboardLeftAlone, ReasonDashboardCancelled
		s.record(it)
	}
	if o.bounded() {
		return // not one of the PRs that need work
	}
	s.res.Left++
	if s.res.LeftBy == nil {
		s.res.LeftBy = map[Outcome]int{}
	}
	s.res.LeftBy[o.out]++
	if errors.Is(s.res.Stopped, context.Canceled) && !s.saidCancelled {
		// One line, not one per PR: the end of the run counts them.
		s.saidCancelled = true
		s.log.Printf("#%d not reached: the run was cancelled; nor is any pull request after it, all left for the next run", o.pr.Number)
	}
}

// afford says whether the budget pays for an operation's steps, keeping
// what the read-back of this run's notices will need.
func (s *sweeper) afford(o op, steps []step) error {
	if o.bounded() {
		// A duplicate's deletion may use rate-limit-reserve, which
		// RequestsLeft keeps out; the dashboard's requests were set aside
		// (dashboard.Cost): the transport enforces operations-per-run and
		// the limit's end.
		return nil
	}
	left := s.gh.RequestsLeft()
	if left < 0 || left >= cost(steps)+s.dedupeReserve(posts(steps)) {
		return nil
	}
	if u := s.gh.Usage(); u.RateRemaining >= 0 && u.RateRemaining-s.cfg.RateLimitReserve <= left {
		return api.RateReserve
	}
	return api.Budget
}

// costOf is the number of requests an operation sends at most: its steps,
// for a PR whose activity the run read (known) or did not.
func (s *sweeper) costOf(out Outcome, known bool) int {
	o := op{out: out}
	if known {
		o.act = &lifecycle.Activity{}
	}
	return cost(s.w.steps(&o))
}

// need is what an operation on a PR whose timeline was read needs: its
// steps and what must stay unspent after them.
func (s *sweeper) need(out Outcome) int {
	o := op{out: out, act: &lifecycle.Activity{}}
	steps := s.w.steps(&o)
	return cost(steps) + s.dedupeReserve(posts(steps))
}

// costOfDecision is what a decision will spend: its operation's steps, or
// for NeedDetail the timeline and a mark after it (the likeliest writes).
func (s *sweeper) costOfDecision(a lifecycle.Action) int {
	if a == lifecycle.NeedDetail {
		return reqTimeline.n + s.costOf(Marked, true)
	}
	if out, ok := outcomeOf[a]; ok {
		return s.costOf(out, false)
	}
	return 0
}

// dedupeReserve is what must stay unspent after an operation (one that
// posts, or any once the run has posted), so the run can still read back
// its notices and find a concurrent run's duplicate.
func (s *sweeper) dedupeReserve(posting bool) int {
	if !posting && s.posts == 0 {
		return 0
	}
	return 1 + (s.posts+1)/100
}

// Reads a run sends before any operation, as MinBudget counts them.
var (
	reqListing = request{name: "POST graphql", n: 1} // one page of a listing
)

// MinBudget is the fewest requests with which a run under cfg can act on
// one pull request, whatever it needs: the listings (the stale PRs, and
// the open PRs when marking is on; each page names who the token acts as
// and carries the PRs' latest 100 events: a PR with a longer history needs
// one read more per 100), the steps of the dearest operation the
// inputs allow and the read-back of what it posted. With less a run stops before acting, run after run.
func MinBudget(cfg config.Config) int {
	s := newSweeper(nil, cfg, time.Time{}, nil)
	reads := reqListing.n
	most := s.need(Unstaled)
	if s.pol.DaysBeforeStale >= 0 {
		reads += reqListing.n
		most = max(most, s.need(Marked))
	}
	if s.pol.DaysBeforeClose >= 0 {
		most = max(most, s.need(Closed))
	}
	if cfg.DashboardIssue != "" {
		reads += dashboard.Cost // set aside for the dashboard issue
	}
	return reads + most
}

// CheckBudget refuses an operations-per-run below MinBudget, as a
// configuration error to report before any request.
func CheckBudget(cfg config.Config) error {
	min := MinBudget(cfg)
	if cfg.OperationsPerRun >= min {
		return nil
	}
	return config.Errors{&config.InputError{Name: config.InputOperationsPerRun, Msg: fmt.Sprintf(
		"want %d or more with these inputs, got %d: one run needs %d requests to act on a pull request "+
			"(the listings, whose pages carry the pull requests' histories and who the token acts as, the requests of a mark or a close, "+
			"reading its notice back, and those set aside for the dashboard issue when dashboard-issue is set), so with fewer every run would stop before acting", min, cfg.OperationsPerRun, min)}}
}

// stopOn ends the run's writes on the first error that must stop it: a
// limit (an api.Stop), the context's end, or a listing that failed.
func (s *sweeper) stopOn(err error) {
	if s.res.Stopped != nil {
		return
	}
	switch {
	case api.IsStop(err):
		s.res.Stopped = err
	default:
		s.res.Stopped = &ListingError{Err: err}
		s.log.Printf("stopping: %s", err)
	}
}

// WriteRefusedError is a run's stop on its first write GitHub refused for
// want of permission (api.ErrWriteRefused): the PR is Failed, the rest not
// reached, and the step fails until the token may write.
type WriteRefusedError struct{ Err error }

func (e *WriteRefusedError) Error() string { return "write refused: " + e.Err.Error() }
func (e *WriteRefusedError) Unwrap() error { return e.Err }

// ListingError is a run's stop on a listing that failed: nothing after it
// can be trusted to be complete.
type ListingError struct{ Err error }

func (e *ListingError) Error() string { return "listing failed: " + e.Err.Error() }
func (e *ListingError) Unwrap() error { return e.Err }
