package sweep

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// opKind is one kind of write the sweep plans. The order of the constants is
// the order a plan runs in: a capped budget goes first to what people wait
// for (the label off a PR someone revived), then to closes, then to telling
// and marking; the clean-ups come after the run's own work.
type opKind int

const (
	opUnstale         opKind = iota // a person acted after the mark: the stale label off
	opClose                         // closing comment, then close (or convert to draft), branch
	opNotify                        // our label lacks its notice (a run stopped in between): post it
	opMark                          // the stale label, then the notice
	opNudge                         // the review nudge, then review-nudge-label (nudge.go)
	opNudgeLabel                    // the nudge label: added (a run stopped after the nudge) or removed (the turn passed)
	opFinishClose                   // we closed it, a stopped run left its branch: delete it, label off
	opCleanLabel                    // a person closed or merged it: the stale label off
	opCleanCloseLabel               // open again after a stale close: close-pr-label off
	opDeleteDuplicate               // a concurrent run's copy of one of our notices
)

// Reasons of the clean-up operations (the rules' reasons are lifecycle's).
const (
	ReasonClosedByPerson  lifecycle.Reason = "closed or merged by a person"
	ReasonBranchFinishing lifecycle.Reason = "closed earlier by stalepr: branch deletion finished"
	ReasonDuplicate       lifecycle.Reason = "a concurrent run posted the same notice"
)

// op is one step of the plan: the writes for one PR, or one comment.
type op struct {
	kind    opKind
	pr      lifecycle.PR
	d       lifecycle.Decision
	act     *lifecycle.Activity // nil when the listing alone decided
	comment int64               // opDeleteDuplicate
}

var kindOf = map[lifecycle.Action]opKind{
	lifecycle.Unstale: opUnstale, lifecycle.Close: opClose, lifecycle.Notify: opNotify, lifecycle.Mark: opMark,
}

// plan turns decisions into operations; the decisions that need no write
// (skipped, kept, still stale) go straight into the result.
func (s *sweeper) plan(decided []planned) []op {
	var ops []op
	for _, p := range decided {
		if o, ok := s.nudgeOp(p); ok {
			ops = append(ops, o)
		}
		if k, ok := kindOf[p.d.Action]; ok {
			ops = append(ops, op{kind: k, pr: p.pr, d: p.d, act: p.act})
			continue
		}
		it := s.item(op{pr: p.pr, d: p.d})
		switch {
		case p.d.Action == lifecycle.Skip:
			s.res.Skipped = append(s.res.Skipped, it)
		case p.pr.HasLabel(s.pol.StaleLabel):
			s.res.Stale = append(s.res.Stale, it)
		}
	}
	return ops
}

// apply runs a plan: the one place where writes start. Dry run, the budget,
// logging, stopping and failures are handled here, once.
func (s *sweeper) apply(ctx context.Context, ops []op) {
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].kind < ops[j].kind })
	for _, o := range ops {
		it := s.item(o)
		if s.res.Stopped != nil && o.kind != opDeleteDuplicate {
			s.notReached(o)
			continue
		}
		if err := ctx.Err(); err != nil {
			s.stopOn(err)
			s.notReached(o)
			continue
		}
		if !s.cfg.DebugOnly {
			if err := s.afford(o); err != nil {
				s.stopOn(err)
				s.notReached(o)
				continue
			}
			if err := s.perform(ctx, o); err != nil {
				if la, ok := asLeftAlone(err); ok {
					it.Action, it.Reason = lifecycle.Skip, la.reason
					s.res.Skipped = append(s.res.Skipped, it)
					s.log.PR(it)
					continue
				}
				if IsStop(err) {
					s.stopOn(err)
					s.notReached(o)
					continue
				}
				s.failItem(it, err)
				continue
			}
		}
		s.done(o, it)
	}
}

// done records and logs an operation performed (or, in a dry run, one that
// would have been).
func (s *sweeper) done(o op, it Item) {
	switch o.kind {
	case opDeleteDuplicate:
		s.log.Printf("removed a duplicate notice on #%d (a concurrent run posted it too)", o.pr.Number)
		return
	case opMark, opNotify:
		s.res.Marked = append(s.res.Marked, it)
	case opUnstale:
		s.res.Unstaled = append(s.res.Unstaled, it)
	case opClose:
		s.res.Closed = append(s.res.Closed, it)
	case opFinishClose, opCleanLabel, opCleanCloseLabel:
		s.res.Cleaned = append(s.res.Cleaned, it)
	case opNudge:
		s.res.Nudged = append(s.res.Nudged, it)
	case opNudgeLabel:
		return // the label of a nudge posted or a turn passed: nothing to report
	}
	s.acted(o)
	s.log.PR(it)
}

// notReached counts a PR the run stopped before.
func (s *sweeper) notReached(o op) {
	if o.kind == opDeleteDuplicate {
		return
	}
	s.res.Left++
	if errors.Is(s.res.Stopped, context.Canceled) {
		s.log.Printf("#%d not reached: the run was cancelled", o.pr.Number)
	}
}

// afford says whether the budget pays for an operation, keeping what the
// read-back of this run's notices will need.
func (s *sweeper) afford(o op) error {
	if o.kind == opDeleteDuplicate {
		// It may use rate-limit-reserve, which RequestsLeft keeps out: the
		// transport enforces operations-per-run and the limit's end.
		return nil
	}
	left := s.gh.RequestsLeft()
	if left < 0 || left >= s.costOf(o.kind)+s.dedupeReserve(o.kind) {
		return nil
	}
	if u := s.gh.Usage(); u.RateRemaining >= 0 && u.RateRemaining-s.cfg.RateLimitReserve <= left {
		return RateReserve
	}
	return Budget
}

// costOf is the number of requests an operation needs at most.
func (s *sweeper) costOf(k opKind) int {
	switch k {
	case opMark:
		return 2 + s.extraReads(s.cfg.StaleMessage, false)
	case opClose:
		n := 2 + s.extraReads(s.cfg.CloseMessage, true)
		if s.pol.CloseAction == lifecycle.CloseToDraft {
			return n + 1 // the conversion, the comment, the labels
		}
		if s.cfg.DeleteBranch {
			n += 5 // read the head, open PRs on the branch (as base, as head), delete it, label off
		}
		return n
	case opFinishClose:
		return 5
	case opUnstale:
		if s.unstaleSetsLabels() {
			return 2 // a fresh read of the PR, then its labels
		}
		return 1
	case opCleanCloseLabel:
		return 2 // a fresh read of the PR, then the label off
	case opNotify, opCleanLabel, opDeleteDuplicate, opNudgeLabel:
		return 1
	case opNudge:
		return 2 // the comment, the label
	}
	return 0
}

// costOfDecision is what a decision will spend: its writes, or for
// NeedDetail the read and the likeliest writes after it.
func (s *sweeper) costOfDecision(a lifecycle.Action) int {
	if a == lifecycle.NeedDetail {
		return 3
	}
	if k, ok := kindOf[a]; ok {
		return s.costOf(k)
	}
	return 0
}

// dedupeReserve is what must stay unspent after an operation that posts, so
// the run can still read back its notices and find a concurrent run's
// duplicate.
func (s *sweeper) dedupeReserve(k opKind) int {
	posts := k == opMark && s.cfg.StaleMessage != "" || k == opNotify ||
		k == opClose && s.cfg.CloseMessage != "" || k == opNudge
	if !posts && s.posts == 0 {
		return 0
	}
	return 1 + (s.posts+1)/100
}

// MinBudget is the fewest requests with which a run under cfg can act on
// one pull request, whatever it needs: the listings (the stale PRs, and
// the open PRs when marking is on), who the token acts as (asked when a
// marker is not github-actions[bot]'s), the PR's timeline, the requests of
// the dearest operation the inputs allow and the read-back of what it
// posted. With less a run stops before acting, run after run.
func MinBudget(cfg config.Config) int {
	s := &sweeper{cfg: cfg, pol: cfg.Policy}
	const identity, timeline = 1, 1
	reads := 1 + identity + timeline
	op := s.costOf(opUnstale)
	if s.pol.DaysBeforeStale >= 0 {
		reads++
		op = max(op, s.costOf(opMark)+s.dedupeReserve(opMark))
	}
	if s.pol.DaysBeforeClose >= 0 {
		op = max(op, s.costOf(opClose)+s.dedupeReserve(opClose))
	}
	return reads + op
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
			"(the listings, who the token acts as, the pull request's timeline, the requests of a mark or a close, "+
			"reading its notice back), so with fewer every run would stop before acting", min, cfg.OperationsPerRun, min)}}
}

// stopOn ends the run's writes on the first error that must stop it: a
// limit (a Stop), the context's end, or a listing that failed.
func (s *sweeper) stopOn(err error) {
	if s.res.Stopped != nil {
		return
	}
	switch {
	case IsStop(err):
		s.res.Stopped = err
	default:
		s.res.Stopped = &ListingError{Err: err}
		s.log.Printf("stopping: %s", err)
	}
}

// ListingError is a run's stop on a listing that failed: nothing after it
// can be trusted to be complete.
type ListingError struct{ Err error }

func (e *ListingError) Error() string { return "listing failed: " + e.Err.Error() }
func (e *ListingError) Unwrap() error { return e.Err }
