package sweep

import (
	"context"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// A person may push commits made days ago (their git dates before the
// mark) and a bot commit on top before the next run (pre-commit.ci, a
// formatter): the history then dates only the bot's commit after the mark,
// and cannot prove that no person pushed (lifecycle's NeedsAncestry). The
// head's ancestry can: a GraphQL query reads the PR's newest commits with
// their first parents, and lifecycle walks them back to the mark's head.

// ancestry is the heads' ancestries this run read, or failed to, per PR:
// each is read once a run, and a PR summarised again (rechecks.go) reuses
// its read.
type ancestry struct {
	*settings
	who    *access
	failed map[int]error
	read   map[int][]lifecycle.Commit
}

// settle settles act, whose history cannot tell who moved the head since
// the mark, by reading the head's commits (one query, once a run, when it may change a
// decision: a close, keeping the PR stale, whatever the turn reads of it),
// which act as it stands (in doubt, a person's push) and the what-if that
// the unread commits are bots' alone tell. A chain the read does not take
// to the mark's head (more commits since than a page holds, a rewrite)
// stays in doubt. A failed read fails the PR: left untouched this run,
// never closed; a stop stops the run.
func (s *ancestry) settle(ctx context.Context, read func(context.Context, int) ([]lifecycle.Commit, error), pr lifecycle.PR, events []lifecycle.Event, act lifecycle.Activity) (lifecycle.Activity, error) {
	o := s.pol.Options(s.id.logins())
	o.Access = s.who.known
	bots := o
	bots.AssumeOnlyBots = true
	if !differ(pr, act, lifecycle.SummarizeWith(pr, events, s.pol.StaleLabel, bots), s.now, s.pol) {
		return act, nil
	}
	if err := s.failed[pr.Number]; err != nil {
		return lifecycle.Activity{}, err // read once a run: a failure is not sent again
	}
	commits, done := s.read[pr.Number]
	var err error
	if !done {
		commits, err = read(ctx, pr.Number)
	}
	if err != nil {
		if s.failed == nil {
			s.failed = map[int]error{}
		}
		s.failed[pr.Number] = err
		return lifecycle.Activity{}, err
	}
	if s.read == nil {
		s.read = map[int][]lifecycle.Commit{}
	}
	s.read[pr.Number] = commits
	o.Ancestry = commits
	return lifecycle.SummarizeWith(pr, events, s.pol.StaleLabel, o), nil
}
