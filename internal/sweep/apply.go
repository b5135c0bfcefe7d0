package sweep

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// costOf is the number of requests an action needs at most.
func (s *sweeper) costOf(a lifecycle.Action) int {
	switch a {
	case lifecycle.Mark:
		return 2 + s.extraReads(s.cfg.StaleMessage, false)
	case lifecycle.Close:
		n := 2 + s.extraReads(s.cfg.CloseMessage, true)
		if s.pol.CloseAction == lifecycle.CloseToDraft {
			return n + 1 // the conversion, the comment, the labels
		}
		if s.cfg.DeleteBranch {
			// read the head, look for open PRs on the branch (as base, as
			// head), delete it, take the stale label off
			n += 5
		}
		return n
	case lifecycle.NeedDetail:
		return 3
	case lifecycle.Notify, lifecycle.Unstale:
		return 1
	}
	return 0
}

// actionOrder spends a capped budget on what people wait for first: the
// label off a PR someone revived, then closes, then telling and marking.
var actionOrder = map[lifecycle.Action]int{
	lifecycle.Unstale: 0, lifecycle.Close: 1, lifecycle.Notify: 2, lifecycle.Mark: 3,
}

func (s *sweeper) apply(ctx context.Context, plan []planned) {
	sort.SliceStable(plan, func(i, j int) bool {
		return actionRank(plan[i].d.Action) < actionRank(plan[j].d.Action)
	})
	for _, p := range plan {
		it := s.item(p)
		switch p.d.Action {
		case lifecycle.Skip:
			s.res.Skipped = append(s.res.Skipped, it)
			continue
		case lifecycle.Keep:
			if p.pr.HasLabel(s.pol.StaleLabel) {
				s.res.Stale = append(s.res.Stale, it)
			}
			continue
		}
		if s.res.Stopped != Completed {
			s.res.Left++
			continue
		}
		if left := s.gh.Left(); !s.cfg.DebugOnly && left >= 0 && left < s.costOf(p.d.Action)+s.dedupeReserve(p.d.Action) {
			s.res.Stopped = StopBudget
			if u := s.gh.Usage(); u.RateRemaining >= 0 && u.RateRemaining-s.cfg.RateLimitReserve <= left {
				s.res.Stopped = StopRateReserve
			}
			s.res.Left++
			continue
		}
		err := s.act(ctx, p)
		if err != nil {
			if ghapi.IsStop(err) {
				s.stopOn(err)
				s.res.Left++
				continue
			}
			s.failItem(it, err)
			continue
		}
		s.log.PR(it)
		switch p.d.Action {
		case lifecycle.Mark, lifecycle.Notify:
			s.res.Marked = append(s.res.Marked, it)
		case lifecycle.Unstale:
			s.res.Unstaled = append(s.res.Unstaled, it)
		case lifecycle.Close:
			s.res.Closed = append(s.res.Closed, it)
		}
	}
}

func actionRank(a lifecycle.Action) int {
	if r, ok := actionOrder[a]; ok {
		return r
	}
	return -1 // skips and keeps first: they cost nothing
}

// act performs one decision. Dry run stops here: this is the one place
// where writes start.
func (s *sweeper) act(ctx context.Context, p planned) error {
	if s.cfg.DebugOnly {
		return nil
	}
	n := p.pr.Number
	switch p.d.Action {
	case lifecycle.Mark:
		if err := s.detailFor(ctx, &p, s.cfg.StaleMessage); err != nil {
			return err
		}
		// Label first: a crash before the notice leaves a labelled PR
		// without notice, which the next run recognises and completes.
		want := without(p.pr.Labels, s.cfg.LabelsToRemoveWhenStale)
		var err error
		if len(want) == len(p.pr.Labels) {
			err = s.gh.AddLabels(ctx, n, []string{s.pol.StaleLabel})
		} else {
			err = s.gh.SetLabels(ctx, n, append(want, s.pol.StaleLabel))
		}
		if err != nil {
			return err
		}
		return s.postNotice(ctx, p, s.now)
	case lifecycle.Notify:
		return s.postNotice(ctx, p, p.d.MarkedAt)
	case lifecycle.Unstale:
		want := without(p.pr.Labels, append([]string{s.pol.StaleLabel}, s.cfg.LabelsToRemoveWhenUnstale...))
		want = union(want, s.cfg.LabelsToAddWhenUnstale)
		if removed := without(p.pr.Labels, want); len(removed) == 1 && len(want) == len(p.pr.Labels)-1 {
			return s.gh.RemoveLabel(ctx, n, removed[0])
		}
		return s.gh.SetLabels(ctx, n, want)
	case lifecycle.Close:
		if s.pol.CloseAction == lifecycle.CloseToDraft {
			return s.toDraft(ctx, p)
		}
		if s.cfg.CloseMessage != "" && !p.d.CloseNoticePosted {
			if err := s.detailFor(ctx, &p, s.cfg.CloseMessage); err != nil {
				return err
			}
			body := notice.Body(notice.Render(s.cfg.CloseMessage, s.vars(p)), notice.CloseMarker())
			if err := s.post(ctx, n, body); err != nil {
				return err
			}
		}
		// One request closes and swaps the stale label for close-pr-label,
		// so "stale" always means open and stale.
		labels := without(p.pr.Labels, []string{s.pol.StaleLabel})
		if s.cfg.CloseLabel != "" {
			labels = union(labels, []string{s.cfg.CloseLabel})
		}
		if s.cfg.DeleteBranch {
			// The stale label stays on until the branch is gone: a crash in
			// between leaves a closed PR with the label, which cleanClosed
			// recognises as closed by us and finishes.
			stale := labelAsOn(p.pr, s.pol.StaleLabel)
			if err := s.gh.Close(ctx, n, union(labels, []string{stale})); err != nil {
				return err
			}
			if err := s.deleteBranch(ctx, n); err != nil {
				return err
			}
			return s.gh.RemoveLabel(ctx, n, stale)
		}
		if err := s.gh.Close(ctx, n, nonNil(labels)); err != nil {
			return err
		}
	}
	return nil
}

// toDraft is close-action: draft. The conversion comes first: GitHub refuses
// it to a workflow's GITHUB_TOKEN, and then nothing else may happen to the
// PR (no closing comment for a conversion that did not take place). A run
// stopped after it leaves a stale-labelled draft, which the next run
// decides again and finishes: comment (once), then the labels.
func (s *sweeper) toDraft(ctx context.Context, p planned) error {
	n := p.pr.Number
	if s.draftRefused != nil {
		return s.draftRefused
	}
	if !p.pr.Draft {
		if err := s.gh.ConvertToDraft(ctx, p.pr.NodeID); err != nil {
			if errors.Is(err, ghapi.ErrDraftForbidden) {
				s.draftRefused = fmt.Errorf("not converted: %w", ghapi.ErrDraftForbidden)
			}
			return fmt.Errorf("convert #%d to draft: %w", n, err)
		}
	}
	if s.cfg.CloseMessage != "" && !p.d.CloseNoticePosted {
		if err := s.detailFor(ctx, &p, s.cfg.CloseMessage); err != nil {
			return err
		}
		body := notice.Body(notice.Render(s.cfg.CloseMessage, s.vars(p)), notice.CloseMarker())
		if err := s.post(ctx, n, body); err != nil {
			return err
		}
	}
	labels := without(p.pr.Labels, []string{s.pol.StaleLabel})
	if s.cfg.CloseLabel != "" {
		labels = union(labels, []string{s.cfg.CloseLabel})
	}
	return s.gh.SetLabels(ctx, n, nonNil(labels))
}

func (s *sweeper) postNotice(ctx context.Context, p planned, markedAt time.Time) error {
	if s.cfg.StaleMessage == "" {
		return nil
	}
	body := notice.Body(notice.Render(s.cfg.StaleMessage, s.vars(p)), notice.StaleMarker(markedAt, p.pr.HeadSHA))
	return s.post(ctx, p.pr.Number, body)
}

func (s *sweeper) post(ctx context.Context, n int, body string) error {
	if s.posts == 0 {
		s.firstPost = s.now
	}
	s.posts++
	err := s.gh.PostComment(ctx, n, body)
	if err == nil {
		s.posted++
	}
	return err
}

// dedupeReserve is what must stay unspent after an action that posts, so the
// run can still read back its notices and find a concurrent run's duplicate.
func (s *sweeper) dedupeReserve(a lifecycle.Action) int {
	posts := a == lifecycle.Mark && s.cfg.StaleMessage != "" || a == lifecycle.Notify ||
		a == lifecycle.Close && s.cfg.CloseMessage != ""
	if !posts && s.posts == 0 {
		return 0
	}
	return 1 + (s.posts+1)/100
}

// deleteBranch deletes the head branch of a PR stalepr closed, only when it
// lives in this repository (deleting by name in a fork's case would hit a
// same-named branch of ours), is not the default branch, and no open PR uses
// it: GitHub closes a PR whose base branch is deleted, and a stacked PR's
// base is another PR's head.
func (s *sweeper) deleteBranch(ctx context.Context, n int) error {
	h, err := s.gh.PullHead(ctx, n)
	if err != nil {
		return fmt.Errorf("closed, but not deleting its branch: %w", err)
	}
	if !h.SameRepo || h.Ref == "" || strings.EqualFold(h.Ref, h.DefaultBranch) || h.DefaultBranch == "" {
		return nil
	}
	inUse, err := s.gh.BranchInUse(ctx, h.Ref)
	if err != nil {
		return fmt.Errorf("closed, but not deleting its branch: %w", err)
	}
	if inUse {
		s.log.Printf("#%d: branch %q kept: an open pull request is based on it or uses it", n, h.Ref)
		return nil
	}
	err = s.gh.DeleteBranch(ctx, h.Ref)
	if errors.Is(err, ghapi.ErrBranchKept) {
		s.log.Printf("#%d: closed; its branch was not deleted: %s", n, s.redact(err))
		return nil
	}
	return err
}

func (s *sweeper) vars(p planned) notice.Vars {
	v := notice.Vars{
		Author:          p.pr.Author,
		DaysInactive:    daysSince(p.d.InactiveSince, s.now),
		DaysBeforeStale: s.pol.DaysBeforeStale,
		DaysBeforeClose: s.pol.DaysBeforeClose,
		CloseDate:       p.d.CloseAt,
		StaleLabel:      s.pol.StaleLabel,
		Labels:          p.pr.Labels,
	}
	if p.act != nil {
		v.Reviewers = p.act.PendingReviewers
		if p.d.Action == lifecycle.Close {
			// Our mark and notice are not activity: count from the last
			// thing a person did, or from the PR's creation.
			v.DaysInactive = daysSince(later(p.pr.CreatedAt, p.act.LastPersonAt), s.now)
		}
	}
	return v
}

// extraReads is 1 when a message needs the timeline of a PR that the
// listing alone decided: {{reviewers}}, and {{days-inactive}} when closing
// (updated_at is then our own mark).
func (s *sweeper) extraReads(tmpl string, closing bool) int {
	if notice.Uses(tmpl, "reviewers") || closing && notice.Uses(tmpl, "days-inactive") {
		return 1
	}
	return 0
}

// detailFor reads the PR's timeline when the message needs it and the
// decision came from the listing alone.
func (s *sweeper) detailFor(ctx context.Context, p *planned, tmpl string) error {
	if p.act != nil || tmpl == "" || s.extraReads(tmpl, p.d.Action == lifecycle.Close) == 0 {
		return nil
	}
	act, err := s.activity(ctx, p.pr)
	if err != nil {
		return err
	}
	p.act = &act
	return nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (s *sweeper) item(p planned) Item {
	return Item{
		Number: p.pr.Number, Title: p.pr.Title, URL: p.pr.URL,
		Action: p.d.Action, Reason: p.d.Reason,
		LastActivity: p.d.InactiveSince, InactiveDays: daysSince(p.d.InactiveSince, s.now),
		CloseAt: p.d.CloseAt,
	}
}

func (s *sweeper) fail(pr lifecycle.PR, err error) {
	s.failItem(Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Skip}, err)
}

// failItem records a PR left untouched because of err. The error text may
// echo a response body: it never carries the token.
func (s *sweeper) failItem(it Item, err error) {
	it.Err = s.redact(err)
	s.res.Failed = append(s.res.Failed, it)
	s.log.PR(it)
}

func (s *sweeper) stopOn(err error) {
	if s.res.Stopped != Completed {
		return
	}
	switch {
	case errors.Is(err, ghapi.ErrBudget):
		s.res.Stopped = StopBudget
	case errors.Is(err, ghapi.ErrRateReserve):
		s.res.Stopped = StopRateReserve
	case ghapi.IsRateLimited(err):
		s.res.Stopped = StopRateLimited
	case errors.Is(err, ghapi.ErrSecondary):
		s.res.Stopped = StopSecondary
	default:
		s.res.Stopped, s.res.StopDetail = StopListingError, s.redact(err)
		s.log.Printf("stopping: %s", s.res.StopDetail)
	}
}

func daysSince(t, now time.Time) int {
	if t.IsZero() {
		return 0
	}
	return int(now.Sub(t) / lifecycle.Day)
}

func without(labels, drop []string) []string {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		if !containsFold(drop, l) {
			out = append(out, l)
		}
	}
	return out
}

func union(labels, add []string) []string {
	out := append([]string(nil), labels...)
	for _, l := range add {
		if !containsFold(out, l) {
			out = append(out, l)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// labelAsOn returns the label as spelled on the PR, which the delete route
// needs, found case-insensitively.
func labelAsOn(pr lifecycle.PR, label string) string {
	for _, l := range pr.Labels {
		if strings.EqualFold(l, label) {
			return l
		}
	}
	return label
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// redact returns an error's text without the token: it may echo a response
// body.
func (s *sweeper) redact(err error) string {
	if s.cfg.Token == "" {
		return err.Error()
	}
	return strings.ReplaceAll(err.Error(), string(s.cfg.Token), "***")
}
