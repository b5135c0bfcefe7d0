package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// perform sends an operation's writes, in an order a stop between two of
// them leaves in a state the next run recognises and finishes.
func (s *sweeper) perform(ctx context.Context, p op) error {
	n := p.pr.Number
	switch p.kind {
	case opMark:
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
	case opNotify:
		return s.postNotice(ctx, p, p.d.MarkedAt)
	case opUnstale:
		return s.unstale(ctx, p)
	case opFinishClose:
		if err := s.deleteBranch(ctx, n); err != nil {
			return err
		}
		return s.gh.RemoveLabel(ctx, n, labelAsOn(p.pr, s.pol.StaleLabel))
	case opCleanLabel:
		return s.gh.RemoveLabel(ctx, n, labelAsOn(p.pr, s.pol.StaleLabel))
	case opCleanCloseLabel:
		return s.removeCloseLabel(ctx, p)
	case opDeleteDuplicate:
		// A copy of our own notice, a bounded clean-up that keeps the
		// one-notice promise: it may use rate-limit-reserve.
		return s.gh.DeleteComment(MayUseReserve(ctx), p.comment)
	case opNudge, opNudgeLabel:
		return s.performNudge(ctx, p)
	case opClose:
		if s.pol.CloseAction == lifecycle.CloseToDraft {
			return s.toDraft(ctx, p)
		}
		if err := s.closingComment(ctx, p); err != nil {
			return err
		}
		// One request closes and swaps the stale label for close-pr-label,
		// so "stale" always means open and stale.
		labels := s.closedLabels(p.pr)
		if s.cfg.DeleteBranch {
			// The stale label stays on until the branch is gone: a stop in
			// between leaves a closed PR with the label, which the next run's
			// clean-up recognises as closed by us and finishes.
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

// unstale takes the stale label off. Removing that one label is right
// whatever happened since the listing. Replacing the label set
// (labels-to-add-when-unstale, labels-to-remove-when-unstale) is not: it
// would undo a concurrent run's close (its close-pr-label) or a label a
// person added meanwhile. The PR is read again right before that write, and
// the set is computed from what it carries now.
func (s *sweeper) unstale(ctx context.Context, p op) error {
	n := p.pr.Number
	drop := append([]string{s.pol.StaleLabel}, s.cfg.LabelsToRemoveWhenUnstale...)
	if !s.unstaleSetsLabels() {
		return s.gh.RemoveLabel(ctx, n, labelAsOn(p.pr, s.pol.StaleLabel))
	}
	now, open, err := s.gh.PullNow(ctx, n)
	switch {
	case err != nil:
		return err
	case !open:
		return &leftAlone{reason: lifecycle.ReasonClosedSince}
	case !now.HasLabel(s.pol.StaleLabel):
		return &leftAlone{reason: "stale label already removed"}
	}
	want := union(without(now.Labels, drop), s.cfg.LabelsToAddWhenUnstale)
	if removed := without(now.Labels, want); len(removed) == 1 && len(want) == len(now.Labels)-1 {
		return s.gh.RemoveLabel(ctx, n, removed[0])
	}
	return s.gh.SetLabels(ctx, n, want)
}

// unstaleSetsLabels: an un-stale changes more labels than the stale one.
func (s *sweeper) unstaleSetsLabels() bool {
	return len(s.cfg.LabelsToAddWhenUnstale)+len(s.cfg.LabelsToRemoveWhenUnstale) > 0
}

// toDraft is close-action: draft. The conversion comes first: GitHub refuses
// it to a workflow's GITHUB_TOKEN, and then nothing else may happen to the
// PR (no closing comment for a conversion that did not take place). A run
// stopped after it leaves a stale-labelled draft, which the next run
// decides again and finishes: comment (once), then the labels.
func (s *sweeper) toDraft(ctx context.Context, p op) error {
	n := p.pr.Number
	if s.draftRefused != nil {
		return s.draftRefused
	}
	if !p.pr.Draft {
		if err := s.gh.ConvertToDraft(ctx, p.pr.NodeID); err != nil {
			if errors.Is(err, ErrDraftForbidden) {
				s.draftRefused = fmt.Errorf("not converted: %w", ErrDraftForbidden)
			}
			return fmt.Errorf("convert #%d to draft: %w", n, err)
		}
	}
	if err := s.closingComment(ctx, p); err != nil {
		return err
	}
	return s.gh.SetLabels(ctx, n, s.closedLabels(p.pr))
}

// closingComment posts close-pr-message, unless a stopped run posted it.
func (s *sweeper) closingComment(ctx context.Context, p op) error {
	if s.cfg.CloseMessage == "" || p.d.CloseNoticePosted {
		return nil
	}
	if err := s.detailFor(ctx, &p, s.cfg.CloseMessage); err != nil {
		return err
	}
	body := notice.Body(notice.Render(s.cfg.CloseMessage, s.vars(p)), notice.CloseMarker())
	return s.post(ctx, p.pr.Number, body)
}

// closedLabels are a closed PR's labels: close-pr-label instead of stale.
func (s *sweeper) closedLabels(pr lifecycle.PR) []string {
	labels := without(pr.Labels, []string{s.pol.StaleLabel})
	if s.cfg.CloseLabel != "" {
		labels = union(labels, []string{s.cfg.CloseLabel})
	}
	return nonNil(labels)
}

func (s *sweeper) postNotice(ctx context.Context, p op, markedAt time.Time) error {
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
	if errors.Is(err, ErrBranchKept) {
		s.log.Printf("#%d: closed; its branch was not deleted: %s", n, err)
		return nil
	}
	return err
}

func (s *sweeper) vars(p op) notice.Vars {
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
		v.DaysWaiting = daysSince(p.act.Turn.Since, s.now)
		v.TurnSince, v.TurnBy, v.TurnByReview = p.act.Turn.Since, p.act.Turn.By, p.act.Turn.ByReview
		if p.kind == opClose {
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
func (s *sweeper) detailFor(ctx context.Context, p *op, tmpl string) error {
	if p.act != nil || tmpl == "" || s.extraReads(tmpl, p.kind == opClose) == 0 {
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

func (s *sweeper) item(p op) Item {
	it := Item{
		Number: p.pr.Number, Title: p.pr.Title, URL: p.pr.URL,
		Action: p.d.Action, Reason: p.d.Reason,
		LastActivity: p.d.InactiveSince, InactiveDays: daysSince(p.d.InactiveSince, s.now),
		CloseAt: p.d.CloseAt,
	}
	return it
}

func (s *sweeper) fail(pr lifecycle.PR, err error) {
	s.failItem(Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Skip}, err)
}

// failItem records a PR left untouched because of err. (ghapi keeps the
// token out of every error it returns.)
func (s *sweeper) failItem(it Item, err error) {
	it.Err = err.Error()
	s.res.Failed = append(s.res.Failed, it)
	s.log.PR(it)
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
