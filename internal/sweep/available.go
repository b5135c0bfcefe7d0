package sweep

import (
	"context"
	"strings"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// availability is the stage between deciding and planning that reads the
// GitHub status of the reviewers the run's nudges and escalations wait on
// (docs/rules.md "Availability"): a reviewer whose status says busy is not
// asked, as one listed in away-reviewers. The listing's pages do not read
// statuses (a field per requested reviewer of every PR): this stage reads
// them once a run, for the distinct logins, StatusesPerRead a request, and
// only when some nudge or escalation is decided, then decides those PRs
// again.
//
// A status it could not read is unknown, and unknown is not busy: the
// nudge goes as it would have, and nobody is escalated early. The read can
// only ever withhold a mention, never add a write of its own.
type availability struct {
	*settings
	gh availabilityGitHub
}

// asks reports whether p's nudge or escalation would ask someone whose
// status changes it: a nudge or an escalation about to be posted.
func asks(p planned) bool {
	return p.act != nil && p.d.Action != lifecycle.Close &&
		(p.nudge == lifecycle.NudgePost || p.escalate == lifecycle.EscalatePost)
}

// asked are the accounts p's nudge or escalation waits on or asks: the
// reviewers the PR waits on and, for an escalation, the escalation
// reviewers.
func (a *availability) asked(p planned) []string {
	logins := p.act.WaitsOn(p.pr.Author)
	if p.escalate == lifecycle.EscalatePost {
		to, _ := lifecycle.EscalationTo(p.pr, nil, a.now, a.pol)
		logins = append(logins, to...)
	}
	return logins
}

// logins are the distinct accounts the plan's nudges and escalations ask
// whose status could change them: neither listed away nor a team ("team:core"
// pending, "org/team" of escalation-reviewers), which has no status.
func (a *availability) logins(plan []planned) []string {
	var out []string
	for _, p := range plan {
		if !asks(p) {
			continue
		}
		for _, l := range a.asked(p) {
			if !lifecycle.ContainsFold(a.pol.AwayReviewers, l) && !strings.HasPrefix(l, lifecycle.TeamPrefix) &&
				!strings.Contains(l, "/") && !lifecycle.ContainsFold(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// read reads the statuses of the logins plan's nudges and escalations wait
// on, fills each such PR's Activity.Busy and decides it again (decide).
// Nothing is read when no PR asks anyone. A read that fails is logged and
// leaves every status unknown; only a stop is returned.
func (a *availability) read(ctx context.Context, plan []planned, decide func(lifecycle.PR, *lifecycle.Activity) planned) error {
	logins := a.logins(plan)
	if len(logins) == 0 {
		return nil
	}
	var busy []lifecycle.Busy
	for len(logins) > 0 {
		batch := logins[:min(len(logins), StatusesPerRead)]
		logins = logins[len(batch):]
		got, err := a.gh.BusyStatuses(ctx, batch)
		if api.IsStop(err) {
			return err
		}
		if err != nil {
			a.log.Printf("Could not read the GitHub status of %d reviewers (%v): none of them counts as busy this run", len(batch), err)
			continue
		}
		busy = append(busy, got...)
	}
	if len(busy) == 0 {
		return nil
	}
	for i, p := range plan {
		if !asks(p) {
			continue
		}
		if p.act.Busy = waitedOn(busy, a.asked(p)); len(p.act.Busy) > 0 {
			plan[i] = decide(p.pr, p.act)
		}
	}
	return nil
}

// waitedOn is the statuses of busy that belong to the logins.
func waitedOn(busy []lifecycle.Busy, logins []string) []lifecycle.Busy {
	var out []lifecycle.Busy
	for _, b := range busy {
		if lifecycle.ContainsFold(logins, b.Login) {
			out = append(out, b)
		}
	}
	return out
}
