package sweep

import (
	"context"
	"errors"
	"fmt"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The dashboard issue (dashboard-issue) is kept after the sweep, from the
// run's Result, by the same executor as every PR's writes: its budget, its
// dry run (reads sent, writes refused, the body shown instead) and its
// words. dashboard.Decide says what the update is; this file reads what it
// needs and turns it into operations.

// keeper keeps the dashboard issue: a stage after the sweep, on the
// sweep's executor, fed the content the sweep's Result renders to.
type keeper struct {
	*settings
	gh keeperGitHub
	x  *executor
}

// Why the dashboard issue is not updated: the run did not see what it
// would show, or could not reach it.
const (
	ReasonDashboardUnseen  lifecycle.Reason = "not updated: the run did not see the whole queue"
	ReasonDashboardRefused lifecycle.Reason = "not updated: GitHub refuses this token's writes"
)

// on reports whether the run keeps the dashboard issue.
func (k *keeper) on() bool { return k.cfg.DashboardIssue != "" }

// hold sets the dashboard's requests aside from the sweep's
// budget, until the release it returns.
func (k *keeper) hold() (release func()) {
	if !k.on() {
		return func() {}
	}
	return k.gh.Hold(dashboard.Cost)
}

// keep brings the dashboard issue up to date with the run's
// Result: one read finds our issues, Decide plans the update, the executor
// sends it. After a creation, the listing again may show a concurrent
// run's copy: every run then keeps the oldest and closes the others.
func (k *keeper) keep(ctx context.Context, content string) {
	if !k.on() {
		return
	}
	if why := unseen(k.x.got.stopped); why != "" {
		k.x.record(k.item(api.Issue{}, DashboardLeftAlone, why))
		return
	}
	ours, err := k.ours(ctx)
	if err != nil {
		k.x.failItem(k.item(api.Issue{}, Failed, ""), err)
		return
	}
	ops := k.ops(dashboard.Decide(ours, content, k.now), 0)
	k.x.apply(ctx, ops)
	for _, o := range ops {
		if o.issue.after != nil {
			k.x.apply(ctx, k.ops(dashboard.Decide(o.issue.after, content, k.now), o.pr.Number))
		}
	}
}

// unseen is why the run must not update the dashboard issue; ""
// when it may. A run its budget stopped still may: the budget held the
// dashboard's requests back, and the block says what the run did not list.
// Any other stop (a listing failed, the rate limit or its reserve, the
// deadline) leaves nothing to spend on it, or nothing true to show.
func unseen(stop error) lifecycle.Reason {
	switch {
	case stop == nil, errors.Is(stop, api.Budget):
		return ""
	case writeRefused(stop) != nil:
		return ReasonDashboardRefused
	case errors.Is(stop, context.Canceled):
		return ReasonDashboardCancelled
	}
	return ReasonDashboardUnseen
}

// ours lists the dashboard issues stalepr's identity wrote,
// oldest first. An identity GitHub does not tell is an error: without it
// no issue can be told ours, and creating one could make a second.
func (k *keeper) ours(ctx context.Context) ([]api.Issue, error) {
	list, err := k.gh.LabelledIssues(ctx, dashboard.Label)
	if err != nil {
		return nil, fmt.Errorf("find the dashboard issue: %w", err)
	}
	if len(list) == 0 {
		return nil, nil
	}
	if err := k.id.learn(ctx); err != nil {
		return nil, fmt.Errorf("dashboard issue left alone: %w", err)
	}
	return dashboard.Ours(list, k.id.login), nil
}

// ops are a plan's operations; the items of an update that writes
// nothing are recorded at once. created is the issue this run just created
// (0 before): found up to date, it is not reported twice.
func (k *keeper) ops(p dashboard.Plan, created int) []op {
	var ops []op
	for _, d := range p.Duplicates {
		o := k.op(DashboardDuplicateClosed, d, dashboard.DuplicateBody(p.Issue.Number))
		o.d.Reason = lifecycle.Reason(fmt.Sprintf("a copy of #%d, made by two runs at once", p.Issue.Number))
		ops = append(ops, o)
	}
	switch p.Action {
	case dashboard.Create:
		ops = append(ops, k.op(DashboardCreated, api.Issue{}, p.Body))
	case dashboard.Edit:
		ops = append(ops, k.op(DashboardEdited, p.Issue, p.Body))
	case dashboard.UpToDate:
		if p.Issue.Number != created {
			k.x.record(k.item(p.Issue, DashboardUpToDate, ""))
		}
	case dashboard.LeftAlone:
		k.x.record(k.item(p.Issue, DashboardLeftAlone, lifecycle.Reason(p.Reason)))
	}
	return ops
}

func (k *keeper) op(out Outcome, is api.Issue, body string) op {
	return op{out: out, pr: lifecycle.PR{Number: is.Number, Title: k.cfg.DashboardIssue, URL: is.URL}, issue: &issueOp{body: body}}
}

func (k *keeper) item(is api.Issue, out Outcome, why lifecycle.Reason) Item {
	it := k.x.item(k.op(out, is, ""))
	it.Outcome, it.Reason = out, why
	return it
}

// created lists our issues after the creation and says whether it
// took: the create's error stands only when no issue of ours shows up.
func (k *keeper) created(ctx context.Context, o *op) error {
	d := o.issue
	ours, err := k.ours(ctx)
	switch {
	case err != nil && d.createErr != nil:
		return fmt.Errorf("create the dashboard issue: %w", d.createErr)
	case err != nil:
		k.log.Printf("dashboard issue: created #%d; could not list again to look for a concurrent run's copy (%v): the next run does", d.created.Number, err)
		return nil
	case len(ours) == 0 && d.createErr != nil:
		return fmt.Errorf("create the dashboard issue: %w", d.createErr)
	case len(ours) == 0:
		// Created, but not found by its label: GitHub drops labels set by
		// a token without push access. Say so rather than create one a run.
		return fmt.Errorf("created the dashboard issue #%d, but GitHub did not keep its label %q, "+
			"so the next run would not find it: give the workflow issues: write, then close #%d", d.created.Number, dashboard.Label, d.created.Number)
	}
	if d.createErr != nil {
		// The answer was lost: ours is the newest.
		is := ours[len(ours)-1]
		o.pr.Number, o.pr.URL = is.Number, is.URL
	}
	d.after = ours
	return nil
}
