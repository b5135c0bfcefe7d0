package sweep

import (
	"context"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// rechecks reads, before the plan, the checks of the PRs whose review
// nudge or escalation is about to be posted and whose checks the listing
// did not read (its pages read only failing rollups', readChecks), then
// decides them again. A required check that failed and was re-run green
// leaves a passing rollup, and only its runs tell that the PR was on its
// author's turn while it failed: without them the reviewers' wait counted
// those days ("waiting 28 days for a review"), and the nudge came early.
// ChecksPerRead PRs a query, only when some nudge or escalation is
// decided, as the availability stage reads. Checks it could not read are
// unknown, and the PR is decided as before.
func (s *sweeper) rechecks(ctx context.Context, plan []planned) error {
	if !s.readsChecks() {
		return nil
	}
	var todo []int // indexes into plan
	for i, p := range plan {
		if asks(p) && !s.checksRead[p.pr.Number] && !p.pr.Checks.Complete {
			todo = append(todo, i)
		}
	}
	for len(todo) > 0 {
		batch := todo[:min(len(todo), ChecksPerRead)]
		todo = todo[len(batch):]
		numbers := make([]int, len(batch))
		for k, i := range batch {
			numbers[k] = plan[i].pr.Number
		}
		checks, err := s.gh.Checks(ctx, numbers)
		if api.IsStop(err) {
			return err
		}
		if err != nil {
			s.log.Printf("Could not read the checks of %d pull requests with a nudge or escalation due (%v): their wait counts from their turn's start this run", len(numbers), err)
			continue
		}
		for _, i := range batch {
			if err := s.recheck(ctx, plan, i, checks); err != nil {
				return err
			}
		}
	}
	return nil
}

// recheck decides plan[i] again with the checks read: its history
// summarised afresh (what the run read of it is kept) with them. A PR
// GitHub did not answer for, or whose history can no longer be read, keeps
// its decision; only a stop is returned.
func (s *sweeper) recheck(ctx context.Context, plan []planned, i int, checks map[int]lifecycle.Checks) error {
	pr := plan[i].pr
	c, ok := checks[pr.Number]
	if !ok {
		return nil
	}
	s.checksRead[pr.Number] = true
	pr.Checks = c
	l, listed := s.hist[pr.Number]
	if listed {
		l.PR = pr
		s.hist[pr.Number] = l
	}
	prev, had := s.acts[pr.Number]
	delete(s.acts, pr.Number)
	act, err := s.activity(ctx, pr)
	switch {
	case api.IsStop(err):
		return err
	case err != nil:
		if had {
			s.acts[pr.Number] = prev
		}
		return nil
	}
	plan[i] = s.decide(pr, &act)
	return nil
}
