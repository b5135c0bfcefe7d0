package sweep

import (
	"context"
	"time"

	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// cleanClosed removes the stale label from PRs closed or merged by a person
// inside the close window: stalepr takes it off itself when it closes.
func (s *sweeper) cleanClosed(ctx context.Context) {
	days := s.pol.DaysBeforeClose
	if days < 0 {
		days = 30
	}
	q := ghapi.Query{State: "closed", Labels: []string{s.pol.StaleLabel}, Sort: "updated", Direction: "asc",
		Since: s.now.Add(-time.Duration(max(days, 1)) * lifecycle.Day)}
	var closed []lifecycle.PR
	if err := s.list(ctx, q, func(pr lifecycle.PR) {
		if pr.HasLabel(s.pol.StaleLabel) {
			closed = append(closed, pr)
		}
	}); err != nil {
		s.stopOn(err)
		return
	}
	for _, pr := range closed {
		it := Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Unstale, Reason: "closed by a person"}
		if !s.cfg.DebugOnly && s.cfg.DeleteBranch {
			// Closed by us, and the run stopped before the branch was deleted.
			ours, err := s.closedByUs(ctx, pr)
			if err == nil && ours {
				it.Action, it.Reason = lifecycle.Close, "closed earlier: branch deletion finished"
				err = s.deleteBranch(ctx, pr.Number)
			}
			if err != nil {
				if ghapi.IsStop(err) {
					s.stopOn(err)
					return
				}
				s.failItem(it, err)
				continue
			}
		}
		if !s.cfg.DebugOnly {
			if err := s.gh.RemoveLabel(ctx, pr.Number, labelAsOn(pr, s.pol.StaleLabel)); err != nil {
				if ghapi.IsStop(err) {
					s.stopOn(err)
					return
				}
				s.failItem(it, err)
				continue
			}
		}
		s.res.Cleaned = append(s.res.Cleaned, it)
	}
}

// dedupe looks at the comments posted since this run started: if a
// concurrent run posted the same notice on the same PR, every run keeps the
// oldest and deletes the others, so the end state has exactly one. Only our
// own notices count: a person quoting one is never deleted.
func (s *sweeper) dedupe(ctx context.Context) {
	if s.posts == 0 || s.cfg.DebugOnly {
		return
	}
	since := s.firstPost.Add(-time.Minute)
	fresh, err := s.recentNotices(ctx, since)
	if err != nil {
		s.log.Printf("could not read back this run's notices to look for a concurrent run's duplicates: %s", s.redact(err))
		return // the markers still stop later runs from posting again
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
	for _, c := range fresh {
		if first[key{c.Issue, c.Event.Notice}] != c.ID {
			if err := s.gh.DeleteComment(ctx, c.ID); err != nil {
				s.log.Printf("could not delete a duplicate notice on #%d: %s", c.Issue, s.redact(err))
				return
			}
			s.log.Printf("removed a duplicate notice on #%d (a concurrent run posted it too)", c.Issue)
		}
	}
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

// closedByUs reports whether the last close of a PR was stalepr's.
func (s *sweeper) closedByUs(ctx context.Context, pr lifecycle.PR) (bool, error) {
	act, err := s.activity(ctx, pr)
	return act.ClosedBySelf, err
}
