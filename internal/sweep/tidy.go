package sweep

import (
	"context"
	"time"

	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// closedOps plans the clean-up of PRs closed inside the close window that
// still carry the stale label: stalepr takes it off itself when it closes,
// so one there was closed or merged by a person (take it off), or closed by
// us in a run that stopped before deleting its branch (finish that).
func (s *sweeper) closedOps(ctx context.Context) ([]op, error) {
	days := s.pol.DaysBeforeClose
	if days < 0 {
		days = 30
	}
	q := ghapi.Query{State: "closed", Labels: []string{s.pol.StaleLabel}, Sort: "updated", Direction: "asc",
		Since: s.now.Add(-time.Duration(max(days, 1)) * lifecycle.Day)}
	var closed []lifecycle.PR
	seen := map[int]bool{}
	err := s.listUntil(ctx, s.gh.ListPRs, q, seen, func(pr lifecycle.PR) {
		if pr.HasLabel(s.pol.StaleLabel) {
			closed = append(closed, pr)
		}
	}, everyPage)
	if err != nil {
		return nil, err
	}
	var ops []op
	for _, pr := range closed {
		o := op{kind: opCleanLabel, pr: pr, d: lifecycle.Decision{Action: lifecycle.Unstale, Reason: ReasonClosedByPerson}}
		if s.cfg.DeleteBranch {
			// Only our own closing comment proves the close was ours.
			act, err := s.activity(ctx, pr)
			if err != nil {
				if ghapi.IsStop(err) {
					return ops, err
				}
				s.fail(pr, err)
				continue
			}
			if act.ClosedBySelf {
				o.kind, o.d = opFinishClose, lifecycle.Decision{Action: lifecycle.Close, Reason: ReasonBranchFinishing}
			}
		}
		ops = append(ops, o)
	}
	return ops, nil
}

// duplicateOps looks at the notices posted since this run started: if a
// concurrent run posted the same notice on the same PR, every run keeps the
// oldest and deletes the others, so the end state has exactly one. Only our
// own notices count: a person quoting one is never deleted.
func (s *sweeper) duplicateOps(ctx context.Context) []op {
	if s.posts == 0 {
		return nil
	}
	since := s.firstPost.Add(-time.Minute)
	fresh, err := s.recentNotices(ctx, since)
	if err != nil {
		s.log.Printf("could not read back this run's notices to look for a concurrent run's duplicates: %s", err)
		return nil // the markers still stop later runs from posting again
	}
	type key struct {
		issue int
		kind  lifecycle.Notice
	}
	first := map[key]int64{}
	for _, c := range fresh {
		k := key{c.Issue, c.Event.Notice}
		if id, ok := first[k]; !ok || c.ID < id {
			first[k] = c.ID
		}
	}
	var ops []op
	for _, c := range fresh {
		if first[key{c.Issue, c.Event.Notice}] != c.ID {
			ops = append(ops, op{kind: opDeleteDuplicate, pr: lifecycle.PR{Number: c.Issue}, comment: c.ID,
				d: lifecycle.Decision{Reason: ReasonDuplicate}})
		}
	}
	return ops
}

// recentNotices lists our notices created since a time. When it finds other
// notices than the ones this run posted, another run is at work, and it may
// be deleting its duplicates while the listing is read: that can shift a
// comment out of sight between two pages, so the listing is then read again
// until two reads agree (a few times at most).
func (s *sweeper) recentNotices(ctx context.Context, since time.Time) ([]ghapi.Comment, error) {
	var prev []ghapi.Comment
	for range 4 {
		comments, err := s.gh.RecentComments(ctx, since)
		if err != nil {
			return nil, err
		}
		if err := s.learnSelf(ctx, commentEvents(comments)); err != nil {
			return nil, err
		}
		// since filters on updated_at: an old notice edited meanwhile is
		// not a duplicate of a fresh one.
		var fresh []ghapi.Comment
		for _, c := range comments {
			if c.Event.Notice != lifecycle.NoNotice && !c.Event.At.Before(since) && containsFold(s.self, c.Event.Actor) {
				fresh = append(fresh, c)
			}
		}
		if len(fresh) == s.posted && prev == nil || sameIDs(prev, fresh) {
			return fresh, nil
		}
		prev = fresh
	}
	return prev, nil
}

func sameIDs(a, b []ghapi.Comment) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	ids := map[int64]bool{}
	for _, c := range a {
		ids[c.ID] = true
	}
	for _, c := range b {
		if !ids[c.ID] {
			return false
		}
	}
	return true
}
