package sweep

import (
	"context"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The commands on closed PRs (lifecycle.Commands; the reopen command,
// docs/rules.md "Reopen on command"): a comment asking for one on a PR
// stalepr closed. The event run answers it at once (issue_comment); the
// scheduled run is the backstop, among the closed PRs the commands' Needs
// asks for. Each command decides (lifecycle.Command's Decide); this file
// reads its facts and plans its writes, whose steps are the writer's
// (commandSteps, steps.go): the reopening (labels with it, one request)
// when it calls for one, then the answer in its words, whose marker ends
// the close's command for good.

// Reasons the event's command leaves a PR alone.
const (
	ReasonCommandOpen lifecycle.Reason = "open: nothing for the reopen command to do"
	ReasonCommandOff  lifecycle.Reason = "the reopen command is off (reopen-command is empty)"
	// ReasonCommandNone: the event's comment is not in the PR's history
	// as a command since its last close (edited or deleted since, or a
	// payload made by hand): the read decides, not the payload.
	ReasonCommandNone lifecycle.Reason = "no reopen command since its last close"
)

// commandGrace is how long the scheduled run leaves a command to its event
// run: an event run answers without reading back its comment, so one at
// the same time as the schedule's could answer twice. An event run starts
// within seconds to minutes of its comment; one queued for longer than
// this meets a schedule that answered already (its answer's marker).
const commandGrace = time.Hour

// commander is the commands' stage: it decides the commands of closed
// PRs, the event's one or the scheduled run's backstop's, and plans their
// operations on the run's executor.
type commander struct {
	*settings
	gh    commanderGitHub
	who   *access
	x     *executor
	dd    *dedup
	audit *auditor
}

// op decides the commands of closed PR c, in the list's order: the
// operation of the first that calls for one, or why there is none (the
// first command's reason; "" with no command at all). A maintainer's access
// that decides and is not known is read first (access.one: one request); a
// stop or a failed read is returned.
func (s *commander) op(ctx context.Context, c ClosedListed) (op, lifecycle.Reason, error) {
	if err := s.id.learnFor(ctx, c.History, s.pol.StaleLabel); err != nil {
		return op{}, "", err
	}
	var why lifecycle.Reason
	for _, cmd := range lifecycle.Commands() {
		d, err := s.decide(ctx, cmd, c)
		if err != nil {
			return op{}, "", err
		}
		switch d.Verdict {
		case lifecycle.CommandReopen:
			return op{out: ReopenedOnCommand, pr: c.PR, command: &d, d: lifecycle.Decision{Action: lifecycle.Keep, Reason: d.Reason}}, "", nil
		case lifecycle.CommandAnswer:
			return op{out: CommandAnswered, pr: c.PR, command: &d, d: lifecycle.Decision{Action: lifecycle.Keep, Reason: d.Reason}}, "", nil
		}
		if why == "" {
			why = d.Reason // ignored, or answered already
		}
	}
	if why == "" {
		why = ReasonCommandNone
	}
	return op{}, why, nil
}

// decide decides command cmd on closed PR c: first as though the unknown
// were nobody's, so that only a command whose answer their access decides
// asks GitHub for it.
func (s *commander) decide(ctx context.Context, cmd lifecycle.Command, c ClosedListed) (lifecycle.CommandDecision, error) {
	facts := lifecycle.ClosedFacts{Merged: c.Merged, BranchGone: c.BranchGone}
	decide := func(assume lifecycle.Access) lifecycle.CommandDecision {
		o := s.pol.Options(s.id.logins())
		o.Access, o.Assume = s.who.known, assume
		d := cmd.Decide(c.PR, c.History, facts, o)
		d.Command = cmd.Name
		return d
	}
	d := decide(lifecycle.AccessNone)
	if d.Unsure != "" && d.Verdict == lifecycle.CommandIgnored {
		if err := s.who.one(ctx, d.Unsure); err != nil {
			return d, err
		}
		d = decide(lifecycle.AccessUnknown) // what GitHub would not tell, author_association decides
	}
	return d, nil
}

// ops is the scheduled run's backstop: the commands among the closed PRs
// updated since the commands' Needs.Closed, from the closure audit's pages
// when they reach that far (no request more), else from a listing of its
// own that stands in for the duplicate clean-up's (recentlyClosed): the
// same pages over the commands' window instead of a day. Only the
// commands decided for are planned; the others are the event path's to
// report, not the summary's every run.
func (s *commander) ops(ctx context.Context) ([]op, error) {
	var asked []ClosedListed
	if a := s.audit.found; a != nil && a.Complete && !a.Since.After(s.needs.Closed) {
		asked = s.audit.asked
	} else {
		var err error
		if asked, err = s.closedAsked(ctx); err != nil {
			return nil, err
		}
	}
	var ops []op
	for _, c := range asked {
		if c.Err != nil {
			continue // its answer is in error: the next run reads it again
		}
		o, why, err := s.op(ctx, c)
		switch {
		case api.IsStop(err):
			return ops, err
		case err != nil:
			s.x.fail(c.PR, err)
		case why == "" && o.command.At.After(s.now.Add(-commandGrace)):
			// Its event run's, if the workflow has one; the next scheduled
			// run's otherwise.
		case why == "":
			ops = append(ops, o)
		}
	}
	return ops, nil
}

// closedAsked lists the closed PRs updated since the commands'
// Needs.Closed, the most recently updated first, and keeps those whose
// history holds a command; their notices, and those of the PRs closed in the
// duplicate clean-up's window, go to the dedup, which then lists nothing
// of its own.
func (s *commander) closedAsked(ctx context.Context) ([]ClosedListed, error) {
	since, dupSince := s.needs.Closed, s.now.Add(-closedWindow)
	var asked []ClosedListed
	read := map[string]bool{}
	var pages api.Pages
	for after := ""; ; {
		read[after] = true
		page, pg, err := s.gh.ClosedPulls(ctx, s.needs.Assignees, after)
		if err == nil {
			err = bound(&pages, len(page), pg, read, "list closed pull requests for reopen commands")
		}
		if err != nil {
			return asked, err
		}
		for _, c := range page {
			if c.Err == nil && c.Older == "" && !c.ClosedAt.Before(dupSince) {
				s.dd.seen(c.PR.Number, c.History)
			}
			if commanded(c.History) {
				s.dd.seen(c.PR.Number, c.History)
				asked = append(asked, c)
			}
		}
		if pg.After == "" || pg.LastKey.Before(since) || read[pg.After] {
			s.dd.readClosed(since)
			return asked, nil
		}
		after = pg.After
	}
}

// on reports whether the scheduled run looks for commands: some command's
// Needs asks for the closed PRs.
func (s *commander) on() bool { return !s.needs.Closed.IsZero() }
