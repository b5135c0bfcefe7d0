// Package sweep runs stalepr once over a repository: list what can change,
// read detail only where the listing cannot decide, apply the rules, then
// write, in an order that a crash or a concurrent run cannot turn into a
// duplicate notice or a wrong close.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// GitHub is every call a sweep makes; ghapi.Client implements it.
type GitHub interface {
	ListPRs(ctx context.Context, q ghapi.Query, page int) ([]lifecycle.PR, ghapi.Page, error)
	RepoComments(ctx context.Context, since time.Time, page int) ([]ghapi.Comment, ghapi.Page, error)
	Timeline(ctx context.Context, number int) ([]lifecycle.Event, error)
	PullHead(ctx context.Context, number int) (ghapi.Head, error)

	AddLabels(ctx context.Context, number int, labels []string) error
	SetLabels(ctx context.Context, number int, labels []string) error
	RemoveLabel(ctx context.Context, number int, label string) error
	PostComment(ctx context.Context, number int, body string) error
	DeleteComment(ctx context.Context, id int64) error
	Close(ctx context.Context, number int, labels []string) error
	DeleteBranch(ctx context.Context, branch string) error

	Usage() ghapi.Usage
	Left() int
}

// Logger receives the run's log lines. PR text is untrusted; the
// implementation sanitises it.
type Logger interface {
	PR(it Item, dryRun bool)
	Printf(format string, args ...any)
}

// DefaultSelf is the login GITHUB_TOKEN writes as. Other identities (an app
// or a personal token) are learned from the authors of our marked notices.
var DefaultSelf = []string{"github-actions[bot]"}

// commentSlack is how far a PR's updated_at may lie after its last comment
// for the comment alone to explain it.
const commentSlack = 5 * time.Second

type sweeper struct {
	gh   GitHub
	cfg  config.Config
	pol  lifecycle.Policy
	now  time.Time
	log  Logger
	self []string
	res  Result

	firstPost time.Time
	posted    bool
}

type planned struct {
	pr  lifecycle.PR
	d   lifecycle.Decision
	act *lifecycle.Activity
}

// Run performs one sweep. It never returns an error: every problem is in the
// Result (Failed PRs, Stopped), so the summary can always be written.
func Run(ctx context.Context, gh GitHub, cfg config.Config, now time.Time, log Logger) Result {
	s := &sweeper{gh: gh, cfg: cfg, pol: cfg.Policy, now: now, log: log, self: DefaultSelf}
	s.res = Result{DryRun: cfg.DebugOnly, Now: now}
	s.run(ctx)
	u := gh.Usage()
	s.res.Requests, s.res.Writes, s.res.ByRoute = u.Requests, u.Writes, u.ByRoute
	s.res.RateLimit, s.res.RateRemaining = u.RateLimit, u.RateRemaining
	return s.res
}

func (s *sweeper) run(ctx context.Context) {
	plan, unsure, err := s.labelled(ctx)
	if err != nil {
		s.stopOn(err)
		return
	}
	fresh, freshUnsure, err := s.candidates(ctx)
	plan = append(plan, fresh...)
	if err != nil {
		s.stopOn(err)
	} else {
		// Reads come out of what the writes already known leave: a run
		// that spent its budget reading and wrote nothing would find the
		// same PRs first again tomorrow and never make progress.
		detailed, derr := s.detail(ctx, unsure, freshUnsure, s.writeCost(plan))
		plan = append(plan, detailed...)
		if derr != nil {
			s.stopOn(derr)
		}
	}
	s.apply(ctx, plan)
	if s.res.Stopped == Completed {
		s.cleanClosed(ctx)
	}
	s.dedupe(ctx)
}

// labelled lists the open PRs carrying the stale label and decides what the
// listing alone can decide; unsure are those that need their activity read.
func (s *sweeper) labelled(ctx context.Context) (plan, unsure []planned, err error) {
	q := ghapi.Query{State: "open", Labels: []string{s.pol.StaleLabel}, Sort: "updated", Direction: "asc"}
	err = s.list(ctx, q, func(pr lifecycle.PR) bool {
		if !pr.HasLabel(s.pol.StaleLabel) {
			return true // GitHub matched the label; defend against a fake that did not
		}
		s.res.Considered++
		d := lifecycle.Decide(pr, nil, s.now, s.pol)
		if d.Action == lifecycle.NeedDetail {
			unsure = append(unsure, planned{pr: pr, d: d})
		} else {
			plan = append(plan, planned{pr: pr, d: d})
		}
		return true
	})
	return plan, unsure, err
}

// detail reads the activity the listings could not settle, within the
// requests left once reserved writes are paid for. Stale PRs come first, the
// most recently updated first: that is where a person may have acted.
func (s *sweeper) detail(ctx context.Context, stale, fresh []planned, reserved int) ([]planned, error) {
	budget := -1
	if left := s.gh.Left(); left >= 0 {
		budget = max(left-reserved, 0)
	}
	sort.SliceStable(stale, func(i, j int) bool { return stale[i].pr.UpdatedAt.After(stale[j].pr.UpdatedAt) })

	byIssue, viaComments, err := s.commentsFor(ctx, stale, &budget)
	if err != nil {
		return nil, err
	}
	var out []planned
	for i, p := range append(stale, fresh...) {
		if viaComments && i < len(stale) {
			if act, ok := lifecycle.FromComments(byIssue[p.pr.Number], p.pr.UpdatedAt, s.self, commentSlack); ok {
				out = append(out, s.decide(p.pr, &act))
				continue
			}
		}
		if budget == 0 {
			s.res.Left++
			continue
		}
		act, err := s.activity(ctx, p.pr)
		if budget > 0 {
			budget--
		}
		if err != nil {
			if ghapi.IsStop(err) {
				s.res.Left += len(stale) + len(fresh) - i // this PR and those not reached
				return out, err
			}
			s.fail(p.pr, err)
			continue
		}
		np := s.decide(p.pr, &act)
		if np.d.Action == lifecycle.Keep && !np.pr.HasLabel(s.pol.StaleLabel) {
			continue
		}
		out = append(out, np)
		if c := s.costOf(np.d.Action); budget > 0 {
			budget = max(budget-c, 0)
		}
	}
	return out, nil
}

// commentsFor reads the repository's comments of the close window when that
// is cheaper than one timeline per stale PR: after the first page the Link
// header tells how many pages there are.
func (s *sweeper) commentsFor(ctx context.Context, stale []planned, budget *int) (map[int][]lifecycle.Event, bool, error) {
	closeCutoff, ok := s.pol.CloseCutoff(s.now)
	if !ok || len(stale) < 3 || *budget == 0 {
		return nil, false, nil
	}
	byIssue := map[int][]lifecycle.Event{}
	for page := 1; page != 0; {
		list, pg, err := s.gh.RepoComments(ctx, closeCutoff, page)
		if *budget > 0 {
			*budget--
		}
		if err != nil {
			if ghapi.IsStop(err) {
				return nil, false, err
			}
			return nil, false, nil // fall back to timelines
		}
		if page == 1 && (pg.Last >= len(stale) || (*budget >= 0 && pg.Last > *budget/2)) {
			return nil, false, nil
		}
		for _, c := range list {
			byIssue[c.Issue] = append(byIssue[c.Issue], c.Event)
		}
		page = pg.Next
	}
	return byIssue, true, nil
}

func (s *sweeper) activity(ctx context.Context, pr lifecycle.PR) (lifecycle.Activity, error) {
	events, err := s.gh.Timeline(ctx, pr.Number)
	if err != nil {
		return lifecycle.Activity{}, err
	}
	return lifecycle.Summarize(events, s.pol.StaleLabel, pr.Author, s.self), nil
}

func (s *sweeper) decide(pr lifecycle.PR, act *lifecycle.Activity) planned {
	d := lifecycle.Decide(pr, act, s.now, s.pol)
	if d.Action == lifecycle.Notify && s.cfg.StaleMessage == "" {
		// Marking without a comment was asked for: a missing notice is normal.
		d.Action, d.Reason = lifecycle.Keep, lifecycle.ReasonStaleWaiting
	}
	return planned{pr: pr, d: d, act: act}
}

// candidates lists open PRs oldest first and stops at the stale cutoff: the
// PRs after it cannot be stale. Acting only after listing keeps the pages
// stable (our writes move PRs to the end of the order). unsure are PRs whose
// decision needs their activity read.
func (s *sweeper) candidates(ctx context.Context) (plan, unsure []planned, err error) {
	cutoff, ok := s.pol.StaleCutoff(s.now)
	if !ok {
		return nil, nil, nil
	}
	q := ghapi.Query{State: "open", Sort: "updated", Direction: "asc"}
	if s.pol.IgnoreUpdates {
		q.Sort = "created"
	}
	// Under activity-from: people, a PR updated after the cutoff may still
	// be inactive as far as people go: the listing must go on to the end.
	people := s.pol.ActivityFrom == lifecycle.People && !s.pol.IgnoreUpdates
	var cost int
	ordered, prevKey := true, time.Time{}
	err = s.listUntil(ctx, q, func(pr lifecycle.PR) bool {
		if pr.HasLabel(s.pol.StaleLabel) {
			return true // handled with the labelled ones
		}
		s.res.Considered++
		d := lifecycle.Decide(pr, nil, s.now, s.pol)
		switch d.Action {
		case lifecycle.Keep:
			return true
		case lifecycle.NeedDetail:
			unsure = append(unsure, planned{pr: pr, d: d})
		default:
			plan = append(plan, planned{pr: pr, d: d})
		}
		cost += s.costOf(d.Action)
		return true
	}, func(pg ghapi.Page) bool {
		// Stopping at the cutoff is only sound on a listing in the order
		// asked for; on any other, read to the end.
		ordered = ordered && pg.Ascending && !pg.FirstKey.Before(prevKey)
		prevKey = pg.LastKey
		if ordered && !people && !pg.LastKey.Before(cutoff) {
			return false
		}
		// Enough work for the budget: the PRs not reached stay oldest and
		// come first on the next run.
		left := s.gh.Left()
		return left < 0 || cost < left
	})
	return plan, unsure, err
}

// writeCost is what the planned actions will spend.
func (s *sweeper) writeCost(plan []planned) int {
	n := 0
	for _, p := range plan {
		n += s.costOf(p.d.Action)
	}
	return n
}

func (s *sweeper) list(ctx context.Context, q ghapi.Query, each func(lifecycle.PR) bool) error {
	return s.listUntil(ctx, q, each, func(ghapi.Page) bool { return true })
}

// listUntil pages through a listing; more decides after each page whether
// the next is worth reading.
func (s *sweeper) listUntil(ctx context.Context, q ghapi.Query, each func(lifecycle.PR) bool, more func(ghapi.Page) bool) error {
	for page := 1; page != 0; {
		prs, pg, err := s.gh.ListPRs(ctx, q, page)
		if err != nil {
			return err
		}
		for _, pr := range prs {
			if !each(pr) {
				return nil
			}
		}
		if !more(pg) {
			return nil
		}
		page = pg.Next
	}
	return nil
}

// costOf is the number of requests an action needs at most.
func (s *sweeper) costOf(a lifecycle.Action) int {
	switch a {
	case lifecycle.Mark:
		return 2 + s.extraReads(s.cfg.StaleMessage, false)
	case lifecycle.Close:
		n := 2 + s.extraReads(s.cfg.CloseMessage, true)
		if s.cfg.DeleteBranch {
			n += 3 // read the head, delete the branch, take the stale label off
		}
		return n
	case lifecycle.NeedDetail:
		return 3
	case lifecycle.Notify, lifecycle.Unstale:
		return 1
	}
	return 0
}

var actionOrder = map[lifecycle.Action]int{
	lifecycle.Close: 0, lifecycle.Unstale: 1, lifecycle.Notify: 2, lifecycle.Mark: 3,
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
		if left := s.gh.Left(); !s.cfg.DebugOnly && left >= 0 && left < s.costOf(p.d.Action) {
			s.res.Stopped = StopBudget
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
		s.log.PR(it, s.cfg.DebugOnly)
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

func (s *sweeper) postNotice(ctx context.Context, p planned, markedAt time.Time) error {
	if s.cfg.StaleMessage == "" {
		return nil
	}
	body := notice.Body(notice.Render(s.cfg.StaleMessage, s.vars(p)), notice.StaleMarker(markedAt))
	return s.post(ctx, p.pr.Number, body)
}

func (s *sweeper) post(ctx context.Context, n int, body string) error {
	if !s.posted {
		s.posted, s.firstPost = true, s.now
	}
	return s.gh.PostComment(ctx, n, body)
}

// deleteBranch deletes the head branch only when it lives in this repository
// and is not its default branch: deleting by name in a fork's case would hit
// a same-named branch of ours.
func (s *sweeper) deleteBranch(ctx context.Context, n int) error {
	h, err := s.gh.PullHead(ctx, n)
	if err != nil {
		return fmt.Errorf("closed, but not deleting its branch: %w", err)
	}
	if !h.SameRepo || h.Ref == "" || strings.EqualFold(h.Ref, h.DefaultBranch) || h.DefaultBranch == "" {
		return nil
	}
	return s.gh.DeleteBranch(ctx, h.Ref)
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
	if err := s.list(ctx, q, func(pr lifecycle.PR) bool {
		if pr.HasLabel(s.pol.StaleLabel) {
			closed = append(closed, pr)
		}
		return true
	}); err != nil {
		s.stopOn(err)
		return
	}
	for _, pr := range closed {
		it := Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Unstale, Reason: "closed by a person"}
		if !s.cfg.DebugOnly && s.cfg.DeleteBranch {
			// Closed by us, and the run stopped before the branch was deleted.
			ours, err := s.closedByUs(ctx, pr.Number)
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
// oldest and deletes the others, so the end state has exactly one.
func (s *sweeper) dedupe(ctx context.Context) {
	if !s.posted || s.cfg.DebugOnly {
		return
	}
	since := s.firstPost.Add(-time.Minute)
	var comments []ghapi.Comment
	for page := 1; page != 0; {
		list, pg, err := s.gh.RepoComments(ctx, since, page)
		if err != nil {
			return // best effort: the markers still stop later runs from posting again
		}
		comments = append(comments, list...)
		page = pg.Next
	}
	type key struct {
		issue int
		kind  lifecycle.Notice
	}
	first := map[key]int64{}
	for _, c := range comments {
		// since filters on updated_at: an old notice edited meanwhile is
		// not a duplicate of a fresh one.
		if c.Event.Notice == lifecycle.NoNotice || c.Event.At.Before(since) {
			continue
		}
		k := key{c.Issue, c.Event.Notice}
		if id, ok := first[k]; !ok || c.ID < id {
			first[k] = c.ID
		}
	}
	for _, c := range comments {
		k := key{c.Issue, c.Event.Notice}
		if c.Event.Notice != lifecycle.NoNotice && !c.Event.At.Before(since) && first[k] != c.ID {
			if err := s.gh.DeleteComment(ctx, c.ID); err != nil {
				return
			}
			s.log.Printf("removed a duplicate notice on #%d (a concurrent run posted it too)", c.Issue)
		}
	}
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
	it.Err = err.Error()
	if s.cfg.Token != "" {
		it.Err = strings.ReplaceAll(it.Err, s.cfg.Token, "***")
	}
	s.res.Failed = append(s.res.Failed, it)
	s.log.PR(it, s.cfg.DebugOnly)
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
	case errors.Is(err, ghapi.ErrRateLimited):
		s.res.Stopped = StopRateLimited
	case errors.Is(err, ghapi.ErrSecondary):
		s.res.Stopped = StopSecondary
	default:
		s.res.Stopped = StopListingError
		s.log.Printf("stopping: %v", err)
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

// closedByUs reports whether the last close of a PR was stalepr's: by one of
// its identities, or by the author of its marked notices.
func (s *sweeper) closedByUs(ctx context.Context, n int) (bool, error) {
	events, err := s.gh.Timeline(ctx, n)
	if err != nil {
		return false, err
	}
	selves := append([]string(nil), s.self...)
	by := ""
	for _, e := range events {
		switch {
		case e.Kind == lifecycle.Commented && e.Notice != lifecycle.NoNotice && e.Actor != "":
			selves = append(selves, e.Actor)
		case e.Kind == lifecycle.Closed:
			by = e.Actor
		}
	}
	return by != "" && containsFold(selves, by), nil
}
