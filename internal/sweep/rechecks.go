package sweep

import (
	"context"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// rechecks is the stage before the plan that reads the checks of the PRs
// whose review nudge or escalation is about to be posted and whose checks
// the listing did not read (its pages read only failing rollups',
// readChecks), then decides them again. A required check that failed and
// was re-run green leaves a passing rollup, and only its runs tell that the
// PR was on its author's turn while it failed: without them the reviewers'
// wait counted those days ("waiting 28 days for a review"), and the nudge
// came early. ChecksPerRead PRs a query, only when some nudge or
// escalation is decided, as the availability stage reads. Checks it could
// not read are unknown, and the PR is decided as before.
type rechecks struct {
	gh  rechecksGitHub
	log Logger
	on  bool         // the listing reads checks (Needs.Checks)
	was map[int]bool // the PRs whose checks this run asked for (sweeper.checksRead)
	// redecide decides a PR again with the checks read (sweeper.redecide);
	// false when its history can no longer be summarised.
	redecide func(ctx context.Context, pr lifecycle.PR) (planned, bool, error)
}

// read reads the checks of plan's PRs that ask someone and whose checks are
// unread, and replaces their plans with the decisions made with them. Only
// a stop is returned.
func (r *rechecks) read(ctx context.Context, plan []planned) error {
	if !r.on {
		return nil
	}
	todo := r.unread(plan)
	for len(todo) > 0 {
		batch := todo[:min(len(todo), ChecksPerRead)]
		todo = todo[len(batch):]
		numbers := make([]int, len(batch))
		for k, i := range batch {
			numbers[k] = plan[i].pr.Number
			r.was[numbers[k]] = true
		}
		checks, err := r.gh.Checks(ctx, numbers)
		if api.IsStop(err) {
			return err
		}
		if err != nil {
			r.log.Printf("Could not read the checks of %d pull requests with a nudge or escalation due (%v): their wait counts from their turn's start this run", len(numbers), err)
			continue
		}
		if err := r.redecideWith(ctx, plan, batch, checks); err != nil {
			return err
		}
	}
	return nil
}

// unread is the indexes into plan of the PRs that ask someone and whose
// checks this run has neither asked for nor read in full.
func (r *rechecks) unread(plan []planned) []int {
	var todo []int
	for i, p := range plan {
		if asks(p) && !r.was[p.pr.Number] && !p.pr.Checks.Complete {
			todo = append(todo, i)
		}
	}
	return todo
}

// redecideWith replaces the plans of batch (indexes into plan) with the
// decisions made with the checks GitHub answered for them. A PR it did not
// answer for keeps its plan: its checks are unknown. Only a stop is
// returned.
func (r *rechecks) redecideWith(ctx context.Context, plan []planned, batch []int, checks map[int]lifecycle.Checks) error {
	for _, i := range batch {
		c, ok := checks[plan[i].pr.Number]
		if !ok {
			continue // GitHub did not answer for it: unknown
		}
		pr := plan[i].pr
		pr.Checks = c
		p, decided, err := r.redecide(ctx, pr)
		if err != nil {
			return err
		}
		if decided {
			plan[i] = p
		}
	}
	return nil
}
