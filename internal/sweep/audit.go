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
	ReasonAuthorClosed  lifecycle.Reason = "its author closed it"
	ReasonBranchGone    lifecycle.Reason = "its head branch is gone"
	// ReasonChecksUnknown: with author-turn-when-checks-fail, a required
	// check failing at the close would have made it the author's turn, and
	// the checks read since cannot tell what they were then.
	ReasonChecksUnknown lifecycle.Reason = "its checks at the close are unknown"
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

// auditor is the closure audit, a stage after the sweep: it replays the
// closes of the last audit-closed-days and plans the reopenings on the
// run's executor.
type auditor struct {
	*settings
	gh auditorGitHub
	x  *executor
	dd *dedup
	// found is what the audit found (Result.Audit): nil until it runs.
	found *AuditResult
	// asked are the closed PRs its pages gave whose history holds a
	// reopen command: the command's backstop reads no page again.
	asked []ClosedListed
}

// ops reads the closed PRs in the audit's window, in the open
// listing's GraphQL pages (most recently updated first: a PR's updated_at
// is no earlier than its close, so the first page older than the window
// ends the listing), and plans the reopenings.
func (au *auditor) ops(ctx context.Context) ([]op, error) {
	days := au.pol.AuditClosedDays
	if days <= 0 {
		return nil, nil
	}
	a := &AuditResult{Days: days, Since: au.now.Add(-time.Duration(days) * lifecycle.Day)}
	au.found = a
	defer sort.SliceStable(a.Wrong, func(i, j int) bool { return a.Wrong[i].ClosedAt.After(a.Wrong[j].ClosedAt) })
	done := map[int]bool{}
	for _, it := range with(au.x.got.items, Closed) {
		done[it.Number] = true // this run's own closes are audited by the next
	}
	var ops []op
	read := map[string]bool{}
	var pages api.Pages
	for after := ""; ; {
		read[after] = true
		page, pg, err := au.gh.ClosedPulls(ctx, au.needs.Assignees, after)
		if err == nil {
			err = bound(&pages, len(page), pg, read, "list closed pull requests for the closure audit")
		}
		if err != nil {
			return ops, err
		}
		pageOps, err := au.page(ctx, au.toJudge(page, a.Since, done))
		ops = append(ops, pageOps...)
		if err != nil {
			return ops, err
		}
		if pg.After == "" || pg.LastKey.Before(a.Since) {
			a.Complete = true
			au.dd.readClosed(a.Since)
			return ops, nil
		}
		if read[pg.After] {
			au.log.Printf("GitHub's listing of closed pull requests gives a page's cursor again: the audit ends here")
			return ops, nil
		}
		after = pg.After
	}
}

// toJudge is the PRs of a listing page the audit judges: those closed in
// its window and not in done (met on an earlier page: pages shift when
// something is updated during the listing; or closed by this run). Those
// whose history holds a reopen command are kept aside, whatever their
// close, for the command's backstop.
func (au *auditor) toJudge(page []ClosedListed, since time.Time, done map[int]bool) []ClosedListed {
	var fresh []ClosedListed
	for _, c := range page {
		if commanded(c.History) {
			au.asked = append(au.asked, c)
		}
		if !done[c.PR.Number] && !c.ClosedAt.Before(since) {
			done[c.PR.Number] = true
			fresh = append(fresh, c)
		}
	}
	return fresh
}

// page replays the closes of a page of closed PRs in the audit's window,
// reads the checks of those it would call wrongly closed (readChecks), and
// judges them; only a stop is returned.
// A stop while replaying still judges the PRs replayed before it.
func (au *auditor) page(ctx context.Context, closed []ClosedListed) ([]op, error) {
	var replays []replayed
	var stop error
	for _, c := range closed {
		r, ok, err := au.replay(ctx, c)
		if err != nil {
			stop = err
			break
		}
		if ok {
			replays = append(replays, r)
		}
	}
	if stop == nil {
		// After a stop nothing more is sent: the checks stay unknown, and
		// the PRs that needed them are reported, kept closed.
		if err := au.readChecks(ctx, replays); err != nil {
			return nil, err
		}
	}
	var ops []op
	for _, r := range replays {
		if o, ok := au.judge(r); ok {
			ops = append(ops, o)
		}
	}
	return ops, stop
}

// replayed is a closed PR whose close the audit replayed.
type replayed struct {
	c      ClosedListed
	events []lifecycle.Event
	ap     lifecycle.AuditPolicy
	audit  lifecycle.Audit
}

// replay replays one closed PR's close; ok when it was a stale close not
// reopened since. Only a stop is returned as an error: a PR that cannot be
// read is reported failed.
func (au *auditor) replay(ctx context.Context, c ClosedListed) (r replayed, ok bool, err error) {
	if c.Err != nil {
		au.x.fail(c.PR, c.Err)
		return replayed{}, false, nil
	}
	events := c.History
	if c.Older != "" {
		older, err := au.gh.History(ctx, c.PR.Number, c.Older)
		if err != nil {
			return replayed{}, false, au.failed(c.PR, err)
		}
		events = append(older, events...)
	}
	if err := au.id.learnFor(ctx, events, au.pol.StaleLabel); err != nil {
		return replayed{}, false, au.failed(c.PR, err)
	}
	au.dd.seen(c.PR.Number, events)
	ap := lifecycle.AuditPolicy{StaleLabel: au.pol.StaleLabel, CloseLabel: au.cfg.CloseLabel, Self: au.id.logins(),
		Turn: au.pol.Options(au.id.logins()), RuleOn: au.pol.For(c.PR).RuleOn}
	audit := lifecycle.AuditClose(c.PR, events, ap)
	if audit.Kind == lifecycle.NotStaleClose || audit.Reopened {
		return replayed{}, false, nil
	}
	au.found.Closes++
	return replayed{c: c, events: events, ap: ap, audit: audit}, true, nil
}

// readChecks reads, ChecksPerRead to a query, the checks of the replayed
// PRs the audit would call wrongly closed, when a required check failing
// at the close makes it the author's turn (the closed listing does not
// read checks), and replays those again. A failed read leaves them
// unknown, and the PRs are kept closed; only a stop is returned.
func (au *auditor) readChecks(ctx context.Context, rs []replayed) error {
	if !au.pol.AuthorTurnWhenChecksFail {
		return nil
	}
	var wrong []int
	for i := range rs {
		if rs[i].audit.Wrong() {
			wrong = append(wrong, i)
		}
	}
	for len(wrong) > 0 {
		batch := wrong[:min(len(wrong), ChecksPerRead)]
		wrong = wrong[len(batch):]
		numbers := make([]int, len(batch))
		for j, i := range batch {
			numbers[j] = rs[i].c.PR.Number
		}
		got, err := au.gh.Checks(ctx, numbers)
		if api.IsStop(err) {
			return err
		}
		if err != nil {
			au.log.Printf("the checks of %d closed pull requests could not be read for the closure audit (%v): they stay closed", len(numbers), err)
			continue
		}
		for _, i := range batch {
			r := &rs[i]
			r.c.PR.Checks = got[r.c.PR.Number]
			r.audit = lifecycle.AuditClose(r.c.PR, r.events, r.ap)
		}
	}
	return nil
}

// judge reports a replayed close that was wrong, and plans its reopening
// when reopen-wrongly-closed asks for it and nothing keeps it closed.
func (au *auditor) judge(r replayed) (op, bool) {
	c, audit := r.c, r.audit
	if !audit.Wrong() {
		return op{}, false
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
	case au.pol.AuthorTurnWhenChecksFail && !audit.ChecksKnown:
		entry.Kept = ReasonChecksUnknown // in doubt, it stays closed
	default:
		// The lock and the exemptions hold for the audit as for every rule
		// (and again on the fresh read before the reopening, reopenSteps).
		entry.Kept, _ = lifecycle.Kept(c.PR, au.pol)
	}
	au.found.Wrong = append(au.found.Wrong, entry)
	if !au.cfg.ReopenWronglyClosed || entry.Kept != "" {
		return op{}, false
	}
	audited := audit
	return op{out: Reopened, pr: c.PR, audit: &audited, said: sayOf(c.PR, nil, "", au.now, au.pol),
		d: lifecycle.Decision{Action: lifecycle.Keep, Reason: ReasonWronglyClosed}}, true
}

// failed reports a closed PR whose history could not be read; a stop
// ends the audit.
func (au *auditor) failed(pr lifecycle.PR, err error) error {
	if api.IsStop(err) {
		return err
	}
	au.x.fail(pr, err)
	return nil
}

// commanded reports whether a history holds a command (whose, the command
// decides).
func commanded(events []lifecycle.Event) bool {
	for _, e := range events {
		if e.Command {
			return true
		}
	}
	return false
}
