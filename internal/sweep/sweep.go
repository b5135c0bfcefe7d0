package sweep

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

type sweeper struct {
	*settings
	gh  sweeperGitHub
	res Result

	seen map[int]bool // open PRs listed so far: a run acts at most once per PR
	// relisted are the PRs a listing gave again, changed (newer): their
	// newer copy is decided.
	relisted map[int]bool
	// hist holds each listed open PR's history as its page gave it; a PR
	// whose history reaches further back is read to its start when a
	// decision needs it (activity).
	hist map[int]Listed
	acts map[int]lifecycle.Activity // each PR's history summarised, once per run

	// Its parts: the listing of the open PRs, the reads a decision needs
	// beyond it (reading) and the plan (planner: an operation per write
	// each decision calls for); a PR's activity and its decisions are its
	// own. The clean-ups after the run's own work list the closed PRs
	// themselves (cleanUp, tidy.go).
	listing *listing
	reading *reading
	planner *planner

	book  *book      // where every open PR listed stands, for the queue views (queue.go)
	w     *writer    // every operation's request steps (steps.go)
	x     *executor  // runs the operations (plan.go)
	dd    *dedup     // our notices seen, and their copies deleted (tidy.go)
	audit *auditor   // the closure audit (audit.go)
	cmd   *commander // the commands on closed PRs (command.go)

	who   *access       // who may push, learnt as decisions need it (access.go)
	avail *availability // the reviewers' GitHub status, read before the plan (available.go)
	again *rechecks     // the checks of the PRs about to be nudged, read before the plan (rechecks.go)
	links *linker       // the intake clock's candidates' links, read before they are decided (links.go)

	heads *ancestry // the heads' ancestries read this run (ancestry.go)
	// checksRead: the PRs whose checks this run asked for (readChecks,
	// rechecks), answered or not.
	checksRead map[int]bool
}

// newSweeper is a run's sweeper with its stages wired: the book the
// decisions go to, the writer whose steps the executor sends.
func newSweeper(gh GitHub, cfg config.Config, now time.Time, log Logger) *sweeper {
	if gh != nil {
		gh = markerReader{gh, cfg.Policy}
	}
	set := &settings{cfg: cfg, pol: cfg.Policy, needs: cfg.Policy.Needs(now), now: now, log: log, id: &identity{gh: gh, log: log}}
	s := &sweeper{settings: set, gh: gh,
		seen: map[int]bool{}, hist: map[int]Listed{}, acts: map[int]lifecycle.Activity{}, checksRead: map[int]bool{}}
	s.listing, s.reading = &listing{s}, &reading{s}
	s.res = Result{DryRun: cfg.DebugOnly, Now: now, StaleClock: s.pol.StaleClock}
	s.who = &access{settings: set, gh: gh}
	s.heads = &ancestry{settings: set, who: s.who}
	s.avail = &availability{settings: set, gh: gh}
	s.links = &linker{settings: set, gh: gh}
	s.again = &rechecks{gh: gh, log: log, on: s.needs.Checks, was: s.checksRead, redecide: s.redecide}
	s.book = newBook(s.pol, now, s.needs.Turn)
	s.w = &writer{settings: set, gh: gh, history: s.activity,
		wholeListed: func(n int) bool { l, ok := s.hist[n]; return ok && l.Older == "" }, collaborator: s.who.collaborator}
	s.w.closing, s.w.reviewing, s.w.marking = &closing{s.w}, &reviewing{s.w}, &marking{s.w}
	s.x = &executor{settings: set, gh: gh, w: s.w, book: s.book}
	s.planner = &planner{settings: set, x: s.x, book: s.book}
	s.dd = &dedup{settings: set, gh: gh, w: s.w, x: s.x}
	s.audit = &auditor{settings: set, gh: gh, x: s.x, dd: s.dd}
	s.cmd = &commander{settings: set, gh: gh, who: s.who, x: s.x, dd: s.dd, audit: s.audit}
	return s
}

// listing is the sweeper's listings of the open PRs' pages (labelled,
// candidates) and what each PR listed costs. Each PR it lists, the
// sweeper reads and decides.
type listing struct{ *sweeper }

// reading is what the sweeper reads of a PR beyond its listing page, when
// a decision needs it: the older history of the PRs the listing could not
// settle, within the budget (detailStale, detailFresh), and in summarising
// a history the accounts' access (access.go) and the head's ancestry
// (ancestry.go) when they change the decision.
type reading struct{ *sweeper }

// Sweep is one run over a repository, in stages: PRs sweeps the pull
// requests, then KeepDashboard brings the dashboard issue up to date with
// what PRs found. Neither returns an error: every problem is in the Result
// (Failed PRs, Stopped), so the summary can always be written.
type Sweep struct {
	s       *sweeper
	k       *keeper
	release func() // gives back the requests set aside for the dashboard
}

// New prepares a run. With dashboard-issue set, the dashboard's requests
// are set aside from the sweep's budget until PRs has run.
func New(gh GitHub, cfg config.Config, now time.Time, log Logger) *Sweep {
	s := newSweeper(gh, cfg, now, log)
	k := &keeper{settings: s.settings, gh: gh, x: s.x}
	s.w.afterCreate = k.created
	return &Sweep{s: s, k: k, release: k.hold()}
}

// PRs sweeps the open pull requests (and the clean-ups and the closure
// audit after them) and returns what it did.
func (r *Sweep) PRs(ctx context.Context) Result {
	s := r.s
	s.res.QuietUntil = quietUntil(s.settings)
	s.run(ctx)
	r.release()
	s.res.Considered, s.res.Queue = s.book.considered, s.book.queue()
	s.res.QuietHeld = s.book.heldCount()
	s.res.MarksKnownUntil = s.book.markDue(s.res.ListedUntil)
	if s.res.ListedAll && !s.res.OpenTotalKnown {
		s.res.OpenTotal, s.res.OpenTotalKnown = s.res.Considered, true
	}
	s.res.StaleCutoff = s.needs.Cutoff
	return s.finish()
}

// KeepDashboard brings the dashboard issue up to date with content, what
// PRs' Result renders to (report.Dashboard), on the sweep's executor: its
// budget, its dry run. It returns PRs' Result with the dashboard's outcome
// and the run's requests. With dashboard-issue off it does nothing.
func (r *Sweep) KeepDashboard(ctx context.Context, content string) Result {
	r.k.keep(ctx, content)
	return r.s.finish()
}

// finish is the run's Result so far, assembled from what its stages
// returned: the listings' and the plan's (res), the executor's items and
// stop, the audit's findings, what learning who may push cost, who the
// token acts as and the requests sent.
func (s *sweeper) finish() Result {
	res, got := s.res, s.x.got
	res.Items, res.Dashboard, res.Stopped, res.WouldSend = got.items, got.dashboard, got.stopped, got.wouldSend
	res.Left += got.left
	res.LeftBy = got.leftBy
	res.Audit = s.audit.found
	res.CollaboratorPages, res.PermissionReads = s.who.pages, s.who.reads
	switch {
	case s.id.login != "":
		res.Self = s.id.login
	default:
		res.Self = s.gh.WroteAs()
	}
	u := s.gh.Usage()
	res.Requests, res.Writes, res.ByRoute = u.Requests, u.Writes, u.ByRoute
	res.RateLimit, res.RateRemaining = u.RateLimit, u.RateRemaining
	res.Queries, res.Points, res.PointsLimit, res.PointsRemaining = u.Queries, u.Points, u.PointsLimit, u.PointsRemaining
	return res
}

// plan plans decided: the decisions that need no write go into the run's
// items, in the run's order, and what the pace left into its counts.
func (s *sweeper) plan(decided []planned) []op {
	ops, kept, left := s.planner.plan(decided)
	s.x.got.items = append(s.x.got.items, kept...)
	s.res.NudgesPaced, s.res.EscalationsPaced, s.res.EscalationsPerRun = left.nudges, left.escalations, s.cfg.EscalationsPerRun
	return ops
}

// Option adds to what Run does.
type Option func(*runOptions)

type runOptions struct{ render func(Result) string }

// WithDashboard has Run keep the dashboard issue with render's content of
// the sweep's Result (report.Dashboard).
func WithDashboard(render func(Result) string) Option {
	return func(o *runOptions) { o.render = render }
}

// Run is a whole run in one call: PRs, then KeepDashboard when
// WithDashboard gives the content.
func Run(ctx context.Context, gh GitHub, cfg config.Config, now time.Time, log Logger, opts ...Option) Result {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	r := New(gh, cfg, now, log)
	res := r.PRs(ctx)
	if o.render == nil || cfg.DashboardIssue == "" {
		return res // nothing to render the content for
	}
	return r.KeepDashboard(ctx, o.render(res))
}

func (s *sweeper) run(ctx context.Context) {
	stale, err := s.listing.labelled(ctx)
	if err != nil {
		s.x.stopOn(err)
		s.res.Unlisted = true
		return
	}
	fresh, freshUnsure, alsoStale, ferr := s.listing.candidates(ctx)
	stale = s.listing.current(append(stale, alsoStale...))
	fresh, freshUnsure = s.listing.current(fresh), s.listing.current(freshUnsure)
	// People first: an un-stale that a person is waiting for is found in
	// the stale PRs' activity, so those reads come before any budget goes
	// to marking. Closes are decided there too; marks come last.
	plan, serr := s.reading.detailStale(ctx, stale)
	plan = append(plan, fresh...)
	s.res.Unlisted = ferr != nil
	switch {
	case serr != nil:
		s.x.stopOn(serr)
		s.res.Left += len(freshUnsure)
	case ferr != nil:
		s.x.stopOn(ferr)
	default:
		// Reads come out of what the writes already known leave: a run
		// that spent its budget reading and wrote nothing would find the
		// same PRs first again tomorrow and never make progress.
		detailed, derr := s.reading.detailFresh(ctx, freshUnsure, s.listing.writeCost(plan))
		plan = append(plan, detailed...)
		if derr != nil {
			s.x.stopOn(derr)
		}
	}
	if s.x.got.stopped == nil {
		// A check re-run green changes when the nudges and escalations
		// planned fall due, and whose status says busy whom they ask:
		// both read before the plan is made.
		if err := s.again.read(ctx, plan); err != nil {
			s.x.stopOn(err)
		}
	}
	if s.x.got.stopped == nil {
		if err := s.avail.read(ctx, plan, s.decide); err != nil {
			s.x.stopOn(err)
		}
	}
	s.x.apply(ctx, s.plan(plan))
	// The parts after the run's own work; one a stop leaves out is named
	// (Result.NotDone), not left to vanish from the reports.
	clean := &cleanUp{settings: s.settings, x: s.x, list: s.gh.ListPRs, listed: s.seen, activity: s.activity}
	for _, part := range []struct {
		name Part
		on   bool
		ops  func(context.Context) ([]op, error)
	}{
		{PartLabelCleanUp, true, clean.closedOps},
		{PartCloseLabelCleanUp, s.cfg.CloseLabel != "", clean.reopenedOps},
		{PartAudit, s.pol.AuditClosedDays > 0, s.audit.ops},
		{PartCommands, s.cmd.on(), s.cmd.ops},
	} {
		switch {
		case !part.on:
		case s.x.got.stopped != nil:
			s.res.NotDone = append(s.res.NotDone, part.name)
		default:
			ops, err := part.ops(ctx)
			s.x.apply(ctx, ops)
			if err != nil {
				s.x.stopOn(err)
			}
		}
	}
	// A dry run reads back too (what a real run would spend), and refuses
	// the deletions of what it finds.
	s.x.apply(ctx, s.dd.ops(ctx))
}

// labelled lists the open PRs carrying the stale label. Every one that is
// not exempt needs its activity: the mark moved updated_at, so the listing
// cannot tell whether anyone acted after it. When the open listing is read
// to its end anyway (Needs.ReadAll), it finds them: no listing of their own.
func (s *listing) labelled(ctx context.Context) (stale []planned, err error) {
	if s.needs.ReadAll {
		return nil, nil
	}
	q := Query{State: "open", Labels: []string{s.pol.StaleLabel}, Sort: "updated", Direction: "asc", Assignees: s.needs.Assignees,
		Checks: s.needs.Checks}
	err = s.listOpen(ctx, q, func(pr lifecycle.PR) {
		if !pr.HasLabel(s.pol.StaleLabel) {
			return // GitHub matched the label; defend against a fake that did not
		}
		stale = append(stale, s.staleListed(ctx, pr))
	}, everyPage)
	return stale, err
}

// staleListed takes a listed stale-labelled PR in.
func (s *listing) staleListed(ctx context.Context, pr lifecycle.PR) planned {
	s.book.listed(pr)
	return s.decide(pr, s.listedActivity(ctx, pr))
}

// detailStale decides the stale PRs on their histories, the most recently
// updated first: that is where a person may have acted, and a history that
// needs a read of its own is read before any budget goes to marking.
func (s *reading) detailStale(ctx context.Context, stale []planned) ([]planned, error) {
	budget := allowance(-1)
	if left := s.gh.RequestsLeft(); left >= 0 {
		budget = allowance(left)
	}
	var out, unsure []planned
	for _, p := range stale {
		if p.d.Action == lifecycle.NeedDetail {
			unsure = append(unsure, p)
		} else {
			out = append(out, p)
		}
	}
	sort.SliceStable(unsure, func(i, j int) bool { return unsure[i].pr.UpdatedAt.After(unsure[j].pr.UpdatedAt) })

	for i, p := range unsure {
		np, err := s.readAndDecide(ctx, p, &budget)
		if err != nil {
			if api.IsStop(err) {
				s.res.Left += len(unsure) - i // this PR and those not reached
				return out, err
			}
			s.x.fail(p.pr, err)
			continue
		}
		if np != nil {
			out = append(out, *np)
		}
	}
	return out, nil
}

// detailFresh reads the activity of unlabelled PRs the listing could not
// settle, within the requests left once reserved writes are paid for.
func (s *reading) detailFresh(ctx context.Context, fresh []planned, reserved int) ([]planned, error) {
	budget := allowance(-1)
	if left := s.gh.RequestsLeft(); left >= 0 {
		budget = allowance(max(left-reserved, 0))
	}
	var out []planned
	for i, p := range fresh {
		np, err := s.readAndDecide(ctx, p, &budget)
		if err != nil {
			if api.IsStop(err) {
				s.res.Left += len(fresh) - i
				return out, err
			}
			s.x.fail(p.pr, err)
			continue
		}
		if np != nil && (np.acts() || np.pr.HasLabel(s.pol.StaleLabel)) {
			out = append(out, *np)
		}
	}
	return out, nil
}

// readAndDecide decides one PR on its history, spending from budget what
// reading it further back costs; nil when the budget is spent (the PR is
// left for the next run).
func (s *reading) readAndDecide(ctx context.Context, p planned, budget *allowance) (*planned, error) {
	deep := s.hist[p.pr.Number].Older != "" || !s.listed(p.pr.Number)
	if deep && budget.empty() {
		s.res.Left++
		return nil, nil
	}
	act, err := s.activity(ctx, p.pr)
	if deep {
		budget.spend(1)
	}
	if err != nil {
		return nil, err
	}
	np := s.decide(p.pr, &act)
	budget.spend(s.x.costOfDecision(np.d.Action))
	return &np, nil
}

// allowance is the number of requests a phase may still spend; negative
// means unbounded.
type allowance int

func (a allowance) empty() bool { return a == 0 }

func (a *allowance) spend(n int) {
	if *a > 0 && n > 0 {
		*a = max(*a-allowance(n), 0)
	}
}

// listed reports whether the open listing gave the PR's history.
func (s *sweeper) listed(n int) bool {
	_, ok := s.hist[n]
	return ok
}

// activity summarises a PR's history: the one its listing page gave, read
// further back first when it reaches back further than the page (once per
// run), or read whole for a PR no open listing gave (a closed one).
func (s *sweeper) activity(ctx context.Context, pr lifecycle.PR) (lifecycle.Activity, error) {
	if act, ok := s.acts[pr.Number]; ok {
		return act, nil
	}
	l, ok := s.hist[pr.Number]
	if !ok || l.Older != "" {
		older, err := s.gh.History(ctx, pr.Number, l.Older)
		if err != nil {
			return lifecycle.Activity{}, err
		}
		l.History, l.Older = append(older, l.History...), ""
		if ok {
			s.hist[pr.Number] = l
		}
	}
	events := l.History
	if err := s.id.learnFor(ctx, events, s.pol.StaleLabel); err != nil {
		return lifecycle.Activity{}, err
	}
	s.dd.seen(pr.Number, events)
	act, err := s.who.summarize(ctx, s.links, pr, events)
	if err == nil && act.NeedsAncestry {
		act, err = s.heads.settle(ctx, s.gh.Ancestry, pr, events, act) // ancestry.go
	}
	if err != nil {
		return lifecycle.Activity{}, err
	}
	s.dd.turns(pr.Number, act.TurnPasses)
	s.acts[pr.Number] = act
	return act, nil
}

// listedActivity is the activity of a PR whose listing page gave its whole
// history, when the run reads turns or the PR is a coding agent's (its
// notices address its human of record, whom only the history names): it
// costs no request, and the queue then knows every PR's turn. nil
// otherwise (the decision asks when it needs it).
func (s *sweeper) listedActivity(ctx context.Context, pr lifecycle.PR) *lifecycle.Activity {
	if l, ok := s.hist[pr.Number]; !ok || l.Older != "" || !s.needs.Turn && !s.pol.IsAgent(pr.Author) {
		return nil
	}
	act, err := s.activity(ctx, pr)
	if err != nil {
		return nil
	}
	return &act
}

func (s *sweeper) decide(pr lifecycle.PR, act *lifecycle.Activity) planned {
	p := decisions(pr, act, s.now, s.pol)
	s.book.decided(p)
	return p
}

// redecide decides pr again, with the checks it now holds: its history
// summarised afresh (what the run read of it is kept, its ancestry too).
// A history that can no longer be summarised keeps the PR's earlier
// summary and decision (false); only a stop is returned.
func (s *sweeper) redecide(ctx context.Context, pr lifecycle.PR) (planned, bool, error) {
	if l, listed := s.hist[pr.Number]; listed {
		l.PR = pr
		s.hist[pr.Number] = l
	}
	prev, had := s.acts[pr.Number]
	delete(s.acts, pr.Number)
	act, err := s.activity(ctx, pr)
	switch {
	case api.IsStop(err):
		return planned{}, false, err
	case err != nil:
		if had {
			s.acts[pr.Number] = prev
		}
		return planned{}, false, nil
	}
	return s.decide(pr, &act), true, nil
}

// candidates lists open PRs oldest first and stops at the stale cutoff: the
// PRs after it cannot be stale. Acting only after listing keeps the pages
// stable (our writes move PRs to the end of the order). unsure are PRs whose
// decision needs their activity read; stale, when the listing is read to its
// end, the stale-labelled PRs it met (labelled lists them otherwise).
func (s *listing) candidates(ctx context.Context) (plan, unsure, stale []planned, err error) {
	if !s.needs.ListOpen {
		return nil, nil, nil, nil
	}
	// With the agent clock sooner than everyone's, the agents' cutoff:
	// each PR is decided on its own clock (lifecycle.Policy.For).
	cutoff := s.needs.Cutoff
	q := Query{State: "open", Sort: "updated", Direction: "asc", Assignees: s.needs.Assignees, Checks: s.needs.Checks}
	if s.pol.IgnoreUpdates {
		q.Sort = "created"
	}
	all := s.needs.ReadAll
	var cost int
	ordered, prevKey, end := true, time.Time{}, false
	err = s.listOpen(ctx, q, func(pr lifecycle.PR) {
		if pr.HasLabel(s.pol.StaleLabel) {
			if all || s.relisted[pr.Number] {
				stale = append(stale, s.staleListed(ctx, pr))
			}
			return // otherwise handled with the labelled ones
		}
		cost += s.decideOpen(ctx, pr, &plan, &unsure)
	}, func(pg Page) bool {
		// Stopping at the cutoff is only sound on a listing in the order
		// asked for; on any other, read to the end.
		ordered = ordered && pg.Ascending && !pg.FirstKey.Before(prevKey)
		prevKey = pg.LastKey
		end = s.reached(pg)
		if ordered && !all && !pg.LastKey.Before(cutoff) {
			return false
		}
		// Enough work for the budget: the PRs not reached stay oldest and
		// come first on the next run.
		left := s.gh.RequestsLeft()
		return left < 0 || cost < left
	})
	s.res.ListedAll = err == nil && end
	return plan, unsure, stale, err
}

// decideOpen decides a PR of the open listing that has no stale label, into
// plan or unsure (file), and returns what it may cost.
func (s *listing) decideOpen(ctx context.Context, pr lifecycle.PR, plan, unsure *[]planned) int {
	s.book.listed(pr)
	last := pr.UpdatedAt
	if s.pol.IgnoreUpdates {
		last = pr.CreatedAt
	}
	if !s.needs.ReadAll && !last.Before(s.needs.Cutoff) {
		// Active, on the page where the listing stops: decided only
		// for the queue views (exempt or when its mark falls due).
		s.book.decided(planned{pr: pr, d: lifecycle.Decide(pr, nil, s.now, s.pol)})
		return 0
	}
	return s.file(s.decide(pr, s.listedActivity(ctx, pr)), plan, unsure)
}

// reached notes how far the open listing's page pg reached, and GitHub's
// count of the open PRs when it gives one; end when pg is the last page.
func (s *listing) reached(pg Page) (end bool) {
	s.res.ListedUntil, end = pg.LastKey, pg.After == ""
	if pg.Total > 0 || pg.Total == 0 && end {
		s.res.OpenTotal, s.res.OpenTotalKnown = pg.Total, true // GitHub's totalCount
	}
	return end
}

// file sorts a decided PR of the open listing: into unsure when only its
// timeline can settle it, into plan when it calls for a write, into neither
// when nothing is due. It returns what the PR may cost.
func (s *listing) file(p planned, plan, unsure *[]planned) int {
	d, nudge := p.d, p.nudge
	if (nudge == lifecycle.NudgeDetail || p.labels.Detail) && (d.Action == lifecycle.Keep || d.Action == lifecycle.NeedDetail) {
		*unsure = append(*unsure, planned{pr: p.pr, d: d, nudge: nudge, labels: p.labels}) // only the timeline tells whose turn it is
		return s.costOfDetail(p.pr)
	}
	switch {
	case d.Action == lifecycle.NeedDetail || s.needsHuman(p):
		*unsure = append(*unsure, planned{pr: p.pr, d: d})
		return s.costOfDetail(p.pr)
	case p.acts():
		*plan = append(*plan, p) // decided, on the listing's facts or the page's history
	}
	return s.x.costOfDecision(d.Action)
}

// needsHuman reports whether p's notice would address a coding agent's PR
// whose history was not read (longer than its listing page): only the
// history names its human of record, so it is read before the notice, which
// would otherwise mention nobody.
func (s *listing) needsHuman(p planned) bool {
	return p.act == nil && (p.d.Action == lifecycle.Mark || p.d.Action == lifecycle.Close) && s.pol.IsAgent(p.pr.Author)
}

// costOfDetail is what deciding an unsure PR may cost: its history read
// further back when its page did not reach its start, and the mark it may
// lead to.
func (s *listing) costOfDetail(pr lifecycle.PR) int {
	n := s.x.costOf(Marked, true)
	if s.hist[pr.Number].Older != "" {
		n += reqTimeline.n
	}
	return n
}

// writeCost is what the planned actions will spend.
func (s *listing) writeCost(plan []planned) int {
	n := 0
	for _, p := range plan {
		n += s.x.costOfDecision(p.d.Action)
	}
	return n
}

// holds are the listed PRs decided once a read completes them: the intake
// clock's candidates' links (links.go), then the failing PRs' checks.
type holds struct {
	links, checks held
	s             *listing
}

// drop forgets the held copies of PR n, if any.
func (h *holds) drop(n int) {
	h.links.drop(n)
	h.checks.drop(n)
}

// admit takes a page's PRs in: a PR met again only when the copy is newer
// (newer), one GitHub's answer gave in error reported failed.
func (h *holds) admit(listed []Listed, each func(lifecycle.PR)) {
	s := h.s
	for _, l := range listed {
		if s.seen[l.PR.Number] && !s.newer(l) {
			continue
		}
		s.seen[l.PR.Number] = true
		h.drop(l.PR.Number) // a newer copy replaces a held one
		if l.Err != nil {
			s.x.fail(l.PR, l.Err)
			continue
		}
		s.hist[l.PR.Number] = l
		h.take(l, each)
	}
}

// take passes a listed PR on, or holds it for its links or its checks.
func (h *holds) take(l Listed, each func(lifecycle.PR)) {
	switch {
	case h.s.links.wants(l.PR):
		h.links = append(h.links, l)
	case l.ChecksFailing:
		h.checks = append(h.checks, l)
	default:
		each(l.PR)
	}
}

// read reads the held PRs' links, then their checks, and passes each on;
// before the listing ends (all false), full requests only.
func (h *holds) read(ctx context.Context, each func(lifecycle.PR), all bool) error {
	err := h.s.links.read(ctx, &h.links, func(l Listed) {
		h.s.hist[l.PR.Number] = l
		if l.ChecksFailing {
			h.checks = append(h.checks, l)
		} else {
			each(l.PR)
		}
	}, all)
	if err != nil {
		return err
	}
	return h.s.readChecks(ctx, &h.checks, each, all)
}

// readChecks reads the held PRs' checks, ChecksPerRead a request, and hands
// each PR on to each, with the history its page gave. Only a stop ends the
// listing; checks GitHub could not give are unknown. Before the listing
// ends (all false) it reads full requests only: the rest waits for the
// next pages' failing PRs.
func (s *listing) readChecks(ctx context.Context, h *held, each func(lifecycle.PR), all bool) error {
	for len(*h) >= ChecksPerRead || all && len(*h) > 0 {
		batch := (*h)[:min(len(*h), ChecksPerRead)]
		numbers := make([]int, len(batch))
		for i, l := range batch {
			numbers[i] = l.PR.Number
		}
		checks, err := s.gh.Checks(ctx, numbers)
		if api.IsStop(err) {
			return err
		}
		if err != nil {
			// Unknown checks put nobody on the author's turn: the PRs are
			// decided on the rest of their facts.
			s.log.Printf("Could not read the checks of %d pull requests (%v): a failing check counts for none of them this run", len(numbers), err)
		}
		for _, l := range batch {
			s.checksRead[l.PR.Number] = true
			l.PR.Checks = checks[l.PR.Number]
			s.hist[l.PR.Number] = l
			each(l.PR)
		}
		*h = (*h)[len(batch):]
	}
	return nil
}

// newer reports whether l is a newer copy of a PR a listing gave already,
// and forgets the older one if so. Keyset pages list a PR again when it
// changes during the listing (a comment between two pages moves it to the
// end of the order): the later copy holds that change, and deciding on the
// earlier one would close a PR someone just answered. Nothing is written
// before the listings end, so the newer copy is decided instead (current
// drops the plans made on the older one). A copy of a PR that failed stays
// failed: it is reported once.
func (s *listing) newer(l Listed) bool {
	n := l.PR.Number
	prev, ok := s.hist[n]
	if !ok || !l.PR.UpdatedAt.After(prev.PR.UpdatedAt) && l.Err == nil {
		return false // failed already, or the same copy (a page read twice)
	}
	delete(s.hist, n)
	delete(s.acts, n)
	if s.relisted == nil {
		s.relisted = map[int]bool{}
	}
	s.relisted[n] = true
	return true
}

// current drops the plans made on a copy of a PR that a later page
// replaced (newer) or failed.
func (s *listing) current(plans []planned) []planned {
	out := plans[:0]
	for _, p := range plans {
		if l, ok := s.hist[p.pr.Number]; ok && l.PR.UpdatedAt.Equal(p.pr.UpdatedAt) {
			out = append(out, p)
		}
	}
	return out
}

// listOpen pages through the open pull requests with their histories
// (OpenPulls), keeping each history for activity. A PR met twice is passed
// on again only when the later copy is newer (see newer); a PR GitHub's
// answer gave in error is reported failed and left untouched, never decided
// on part of its facts; a cursor met twice ends the listing.
func (s *listing) listOpen(ctx context.Context, q Query, each func(lifecycle.PR), more func(Page) bool) error {
	read := map[string]bool{}
	got := 0         // PRs the pages gave, or said they could not
	h := holds{s: s} // PRs whose links or checks are still to be read
	var pages api.Pages
	for after := ""; ; {
		read[after] = true
		listed, pg, err := s.gh.OpenPulls(ctx, q, after)
		if err != nil {
			return err
		}
		got += len(listed) + pg.Unread
		if err := bound(&pages, len(listed), pg, read, "list pull requests"); err != nil {
			return err
		}
		if pg.After == "" && pg.Total > got {
			// The last page, and GitHub's own count says more: PRs the
			// answers left out without a word.
			pg.Unread += pg.Total - got
		}
		s.res.Unread += pg.Unread
		s.id.told(pg.Viewer) // who the token acts as, when the page names it
		h.admit(listed, each)
		if err := h.read(ctx, each, false); err != nil {
			return err
		}
		if !more(pg) || pg.After == "" {
			return h.read(ctx, each, true)
		}
		if read[pg.After] {
			s.log.Printf("GitHub's listing gives a page's cursor again: the listing ends here")
			return h.read(ctx, each, true)
		}
		after = pg.After
	}
}

// Reads a run sends before any operation, as MinBudget counts them.
var (
	reqListing = request{name: "POST graphql", n: 1} // one page of a listing
)

// MinBudget is the fewest requests with which a run under cfg can act on
// one pull request, whatever it needs: the listings (the stale PRs, and
// the open PRs when marking is on; each page names who the token acts as
// and carries the PRs' latest 100 events: a PR with a longer history needs
// one read more per 100), the steps of the dearest operation the
// inputs allow and the read-back of what it posted. With less a run stops before acting, run after run.
func MinBudget(cfg config.Config) int {
	s := newSweeper(nil, cfg, time.Time{}, nil)
	reads := reqListing.n
	most := s.x.need(Unstaled)
	if s.pol.Marks() {
		reads += reqListing.n
		most = max(most, s.x.need(Marked))
	}
	if s.pol.Closes() {
		most = max(most, s.x.need(Closed))
	}
	if cfg.DashboardIssue != "" {
		reads += dashboard.Cost // set aside for the dashboard issue
	}
	if s.needs.Checks {
		reads++ // the checks of the listed PRs whose rollup is failing
	}
	return reads + most
}

// CheckBudget refuses an operations-per-run below MinBudget, as a
// configuration error to report before any request.
func CheckBudget(cfg config.Config) error {
	min := MinBudget(cfg)
	if cfg.OperationsPerRun >= min {
		return nil
	}
	return config.Errors{&config.InputError{Name: config.InputOperationsPerRun, Msg: fmt.Sprintf(
		"want %d or more with these inputs, got %d: one run needs %d requests to act on a pull request "+
			"(the listings, whose pages carry the pull requests' histories and who the token acts as, the requests of a mark or a close, "+
			"reading its notice back, and those set aside for the dashboard issue when dashboard-issue is set), so with fewer every run would stop before acting", min, cfg.OperationsPerRun, min)}}
}
