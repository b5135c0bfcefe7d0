package sweep

import (
	"context"
	"sort"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The closure audit (README "Closure audit"): the PRs a stale bot closed
// in the last audit-closed-days days, replayed to their close; those closed
// on the reviewers' or the maintainers' turn are reported, and with
// reopen-wrongly-closed reopened, once each.

// Reasons of the closure audit.
const (
	ReasonWronglyClosed lifecycle.Reason = "closed as stale while it waited on the reviewers or the maintainers"
	ReasonMerged        lifecycle.Reason = "merged"
	ReasonAuthorClosed  lifecycle.Reason = "its author closed it"
	ReasonBranchGone    lifecycle.Reason = "its head branch is gone"
	ReasonReopenedSince lifecycle.Reason = "open again since it was listed"
)

// AuditResult is what the closure audit found.
type AuditResult struct {
	Days  int       // audit-closed-days
	Since time.Time // the window's start
	// Closes is how many stale bots' closes in the window were replayed;
	// Wrong those on the reviewers' or maintainers' turn, the most
	// recently closed first.
	Closes int
	Wrong  []Audited
	// Complete: the listing reached the window's start (a stopped run's
	// audit covers the most recent closes only).
	Complete bool
}

// Audited is a PR a stale bot closed while it waited on its reviewers or
// its maintainers.
type Audited struct {
	Number   int
	Title    string // untrusted: sanitise before printing
	URL      string
	Kind     lifecycle.CloseKind
	ClosedAt time.Time
	ClosedBy string
	Whose    lifecycle.Whose // the turn at the close
	Waited   int             // days on that turn at the close
	// Kept says why it is not reopened (merged, its author's close, its
	// branch gone); "" when it may be.
	Kept lifecycle.Reason
}

// WronglyClosed is the numbers of the PRs the audit found closed on the
// reviewers' or maintainers' turn (output wrongly-closed-prs).
func (r Result) WronglyClosed() []int {
	if r.Audit == nil {
		return nil
	}
	out := make([]int, len(r.Audit.Wrong))
	for i, a := range r.Audit.Wrong {
		out[i] = a.Number
	}
	return out
}

// Reopened is the PRs the audit reopened (or would, in a dry run).
func (r Result) Reopened() []Item { return r.With(Reopened) }

// auditOps reads the closed PRs in the audit's window, in the open
// listing's GraphQL pages (most recently updated first: a PR's updated_at
// is no earlier than its close, so the first page older than the window
// ends the listing), and plans the reopenings.
func (s *sweeper) auditOps(ctx context.Context) ([]op, error) {
	days := s.cfg.AuditClosedDays
	if days <= 0 {
		return nil, nil
	}
	a := &AuditResult{Days: days, Since: s.now.Add(-time.Duration(days) * lifecycle.Day)}
	s.res.Audit = a
	defer sort.SliceStable(a.Wrong, func(i, j int) bool { return a.Wrong[i].ClosedAt.After(a.Wrong[j].ClosedAt) })
	closedNow := map[int]bool{}
	for _, it := range s.res.Closed() {
		closedNow[it.Number] = true // this run's own closes are audited by the next
	}
	var ops []op
	seen, read := map[int]bool{}, map[string]bool{}
	var pages api.Pages
	for after := ""; ; {
		read[after] = true
		page, pg, err := s.gh.ClosedPulls(ctx, s.pol.ReadsAssignees(), after)
		if err == nil {
			err = bound(&pages, len(page), pg, read, "list closed pull requests for the closure audit")
		}
		if err != nil {
			return ops, err
		}
		for _, c := range page {
			if seen[c.PR.Number] || closedNow[c.PR.Number] || c.ClosedAt.Before(a.Since) {
				continue
			}
			seen[c.PR.Number] = true
			o, ok, err := s.auditOne(ctx, c)
			if err != nil {
				return ops, err
			}
			if ok {
				ops = append(ops, o)
			}
		}
		if pg.After == "" || pg.LastKey.Before(a.Since) {
			a.Complete = true
			return ops, nil
		}
		if read[pg.After] {
			s.log.Printf("GitHub's listing of closed pull requests gives a page's cursor again: the audit ends here")
			return ops, nil
		}
		after = pg.After
	}
}

// auditOne replays one closed PR; ok when it is to be reopened. Only a
// stop is returned as an error: a PR that cannot be read is reported
// failed.
func (s *sweeper) auditOne(ctx context.Context, c ClosedListed) (o op, ok bool, err error) {
	if c.Err != nil {
		s.x.fail(c.PR, c.Err)
		return op{}, false, nil
	}
	events := c.History
	if c.Older != "" {
		older, err := s.gh.History(ctx, c.PR.Number, c.Older)
		if err != nil {
			return op{}, false, s.auditFailed(c.PR, err)
		}
		events = append(older, events...)
	}
	if err := s.id.learnFor(ctx, events, s.pol.StaleLabel); err != nil {
		return op{}, false, s.auditFailed(c.PR, err)
	}
	s.dd.seen(c.PR.Number, events)
	audit := lifecycle.AuditClose(c.PR, events, lifecycle.AuditPolicy{StaleLabel: s.pol.StaleLabel, CloseLabel: s.cfg.CloseLabel, Self: s.id.logins()})
	if audit.Kind == lifecycle.NotStaleClose || audit.Reopened {
		return op{}, false, nil
	}
	s.res.Audit.Closes++
	if !audit.Wrong() {
		return op{}, false, nil
	}
	entry := Audited{Number: c.PR.Number, Title: c.PR.Title, URL: c.PR.URL, Kind: audit.Kind,
		ClosedAt: audit.ClosedAt, ClosedBy: audit.ClosedBy, Whose: audit.Turn.Whose, Waited: daysSince(audit.Turn.Since, audit.ClosedAt)}
	switch {
	case c.Merged:
		entry.Kept = ReasonMerged
	case audit.ByAuthor:
		entry.Kept = ReasonAuthorClosed
	case c.BranchGone:
		entry.Kept = ReasonBranchGone
	default:
		// The lock and the exemptions hold for the audit as for every rule
		// (and again on the fresh read before the reopening, reopenSteps).
		entry.Kept, _ = lifecycle.Kept(c.PR, s.pol)
	}
	s.res.Audit.Wrong = append(s.res.Audit.Wrong, entry)
	if !s.cfg.ReopenWronglyClosed || entry.Kept != "" {
		return op{}, false, nil
	}
	return op{out: Reopened, pr: c.PR, audit: &audit,
		d: lifecycle.Decision{Action: lifecycle.Keep, Reason: ReasonWronglyClosed}}, true, nil
}

// auditFailed reports a closed PR whose history could not be read; a stop
// ends the audit.
func (s *sweeper) auditFailed(pr lifecycle.PR, err error) error {
	if api.IsStop(err) {
		return err
	}
	s.x.fail(pr, err)
	return nil
}
