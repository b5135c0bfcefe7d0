package sweep

import (
	"context"
	"strings"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The event path: a run started by an event on one pull request (a
// comment, a review, a push) evaluates that PR alone, at once, and writes
// only what a person's action can call for now: the stale label off, the
// turn labels, the nudge label off when the turn passed, and the review
// requested again of those whose change request the author answered
// (rerequest-reviewers-on-answer). Marks, notices, closes, nudges,
// escalations, the clean-ups and the closure audit stay the scheduled
// run's: an event run never starts a clock's end.

// eventOutcomes are the writes an event run may make.
var eventOutcomes = map[Outcome]bool{Unstaled: true, TurnLabeled: true, NudgeLabeled: true, Rerequested: true}

// EventRequests caps an event run's requests at what its one read and the
// writes eventOutcomes allow may take together, each at its most: the
// un-stale 2 (a read before replacing the label set, with
// labels-to-add-when-unstale), the turn labels 2 (a read before the swap),
// the nudge label 1, the re-request 2 (a read, the request). A cap below
// that stopped an author's answer half done: the stale label off, the turn
// labels left for the schedule.
const EventRequests = 1 + 2 + 2 + 1 + 2

// Reasons an event run leaves its PR alone.
const (
	ReasonEventOwn    lifecycle.Reason = "the event is stalepr's own write"
	ReasonEventClosed lifecycle.Reason = "closed: nothing for an event run to do"
	ReasonEventLater  lifecycle.Reason = "left for the scheduled run"
)

// OnePR evaluates pull request number after an event sender caused:
// one read of it, then at most the writes eventOutcomes allow. An event of
// the token's own identity (its own writes, with a personal token) ends
// after that read, writing nothing: no loop.
func (r *Sweep) OnePR(ctx context.Context, number int, sender string) Result {
	s := r.s
	s.res.EventPR = number
	r.release()
	l, open, err := s.gh.Pull(ctx, number, s.needs.Checks)
	if err != nil {
		s.failEvent(lifecycle.PR{Number: number}, err)
		return s.finish()
	}
	pr := l.PR
	if login, _ := s.gh.Viewer(ctx); login != "" {
		s.id.told(login) // the read named the viewer, so this asks nothing
	}
	switch {
	case s.id.login != "" && strings.EqualFold(s.id.login, sender):
		s.x.skip(op{pr: pr}, ReasonEventOwn)
		return s.finish()
	case !open:
		s.x.skip(op{pr: pr}, ReasonEventClosed)
		return s.finish()
	}
	s.seen[pr.Number], s.hist[pr.Number] = true, l.Listed
	s.book.listed(pr)
	if l.Err != nil {
		s.x.fail(pr, l.Err)
		return s.finish()
	}
	act, err := s.activity(ctx, pr)
	if err != nil {
		s.failEvent(pr, err)
		return s.finish()
	}
	var ops []op
	for _, o := range s.plan([]planned{s.decide(pr, &act)}) {
		// The nudge label may come off (the turn passed), not go on.
		if eventOutcomes[o.out] && (o.out != NudgeLabeled || pr.HasLabel(s.pol.NudgeLabel)) {
			o.readNow = true // decided on the read just made
			ops = append(ops, o)
			continue
		}
		s.x.skip(o, ReasonEventLater)
	}
	s.x.apply(ctx, ops)
	s.res.Considered, s.res.Queue = s.book.considered, s.book.queue()
	return s.finish()
}

// Command answers the reopen command on the closed pull request number,
// after an issue_comment by sender (event.Skip let only the command
// through): one read of the PR, the access of a maintainer who asked when
// it is not known, then the reopening and the answer. At most 4
// requests; the author's command 3.
func (r *Sweep) Command(ctx context.Context, number int, sender string) Result {
	s := r.s
	s.res.EventPR = number
	r.release()
	l, open, err := s.gh.Pull(ctx, number, false)
	if err != nil {
		s.failEvent(lifecycle.PR{Number: number}, err)
		return s.finish()
	}
	if login, _ := s.gh.Viewer(ctx); login != "" {
		s.id.told(login) // the read named the viewer, so this asks nothing
	}
	pr := l.PR
	switch {
	case s.id.login != "" && strings.EqualFold(s.id.login, sender):
		s.x.skip(op{pr: pr}, ReasonEventOwn)
		return s.finish()
	case open:
		s.x.skip(op{pr: pr}, ReasonCommandOpen)
		return s.finish()
	case !s.pol.CommandsOn():
		s.x.skip(op{pr: pr}, ReasonCommandOff)
		return s.finish()
	case l.Err != nil:
		s.x.fail(pr, l.Err)
		return s.finish()
	}
	o, why, err := s.cmd.op(ctx, l)
	switch {
	case err != nil:
		s.failEvent(pr, err)
	case why != "":
		s.x.skip(op{pr: pr}, why)
	default:
		o.readNow = true // decided on the read just made
		s.x.apply(ctx, []op{o})
	}
	return s.finish()
}

// OneForkPR is OnePR on a pull request from fork (its head repository),
// after an event whose run GitHub may give a read-only token on a fork's
// PR (pull_request_review and its kin, in a repository whose payload does
// not make that certain): GitHub's refusal of the first write ends the run
// green, the PR skipped for the scheduled run, nothing more sent for it.
// Any other refusal, or one after a write went through, fails as in OnePR.
func (r *Sweep) OneForkPR(ctx context.Context, number int, sender, fork string) Result {
	r.s.x.fork = fork
	return r.OnePR(ctx, number, sender)
}

// failEvent reports the event's PR failed: a read of it failed, or the
// budget (a stop) ended the run before its decision. The scheduled run
// takes it up.
func (s *sweeper) failEvent(pr lifecycle.PR, err error) {
	if api.IsStop(err) {
		s.x.stopOn(err)
	}
	s.x.fail(pr, err)
}

// skip records o's PR as left alone, for why.
func (x *executor) skip(o op, why lifecycle.Reason) {
	it := x.item(o)
	it.Outcome, it.Action, it.Reason = Skipped, lifecycle.Skip, why
	x.record(it)
}
