package sweep

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// cleanUp plans the clean-ups after the run's own work, each from a
// listing of its own (list): the stale label on closed PRs (closedOps),
// close-pr-label on reopened ones (reopenedOps, reopened.go).
type cleanUp struct {
	*settings
	x        *executor
	list     lister
	listed   map[int]bool // the open PRs this run listed: it acts at most once per PR
	activity func(context.Context, lifecycle.PR) (lifecycle.Activity, error)
}

// closedOps plans the clean-up of PRs closed inside the close window that
// still carry the stale label: stalepr takes it off itself when it closes,
// so one there was closed or merged by a person (take it off), closed by
// another stale bot (leave it: the label says why it was closed), or closed
// by us in a run that stopped before deleting its branch (finish that). One
// put on after the close is not a mark left behind: it is left.
func (s *cleanUp) closedOps(ctx context.Context) ([]op, error) {
	q := Query{State: "closed", Labels: []string{s.pol.StaleLabel}, Sort: "updated", Direction: "asc",
		Since: s.pol.CleanupSince(s.now)}
	var closed []lifecycle.PR
	seen := map[int]bool{}
	err := listUntil(ctx, s.log, s.list, q, seen, func(pr lifecycle.PR) {
		if pr.HasLabel(s.pol.StaleLabel) {
			closed = append(closed, pr)
		}
	}, everyPage)
	if err != nil {
		return nil, err
	}
	var ops []op
	for _, pr := range closed {
		if s.listed[pr.Number] {
			// Open when this run listed it: closed by this run (its branch
			// deletion failed, say) or by someone meanwhile. The history
			// this run read is from before that close, so the next run's
			// clean-up decides it: a run acts at most once per PR.
			continue
		}
		o := op{out: LabelCleaned, pr: pr, d: lifecycle.Decision{Action: lifecycle.Keep, Reason: ReasonClosedByPerson}}
		// Who closed it only the history tells: our own closing comment
		// proves the close was ours, and a bot's close with the label on is
		// a stale bot's (actions/stale without close-pr-message leaves its
		// label on), whose label is the only record of it. A merged PR is
		// nobody's stale close, but a label put on after the merge is a
		// person's word, which only the history dates.
		act, err := s.activity(ctx, pr)
		if err != nil {
			if api.IsStop(err) {
				return ops, err
			}
			s.x.fail(pr, err)
			continue
		}
		switch {
		case !act.ClosedAt.IsZero() && act.MarkedAt.After(act.ClosedAt):
			// The label went on after the close: a person's (or another
			// tool's) record of why it was closed, no mark of ours left
			// behind, and no close of ours left unfinished.
			continue
		case act.ClosedBySelf && s.cfg.DeleteBranch:
			o.out, o.d = BranchFinished, lifecycle.Decision{Action: lifecycle.Keep, Reason: ReasonBranchFinishing}
		case act.ClosedBySelf:
			o.d.Reason = ReasonClosedBySelf
		case pr.Merged:
			o.d.Reason = ReasonMerged
		case act.ClosedByBot:
			continue
		}
		ops = append(ops, o)
	}
	return ops, nil
}

// duplicateWindow is how far apart two of our notices of one kind on one PR
// may have been posted and still be copies of each other: concurrent runs
// post theirs within the span of a run. A second notice that is legitimate
// (a new mark after a person's activity, a new close after a reopening)
// comes a run later at the earliest, and days-before-stale or
// days-before-close after that; a nudge or an escalation of a new turn may
// come minutes after the last (days-before-review-nudge 0), and the turn's
// passing separates them (turns).
const duplicateWindow = time.Hour

// dedup keeps the one-notice promise against concurrent runs: it keeps
// the notices of ours this run's reads met (seen), and at the run's end
// reads back what this run posted (ops) and deletes the copies.
type dedup struct {
	*settings
	gh dedupGitHub
	w  *writer
	x  *executor

	notices    map[int64]ourNotice // our notices seen in this run's reads, by comment ID
	boundaries map[int][]time.Time // per PR: un-stales and reopenings seen, which separate notices
	// turnPasses are, per PR whose turn was read, when it passed: each
	// turn has a nudge and an escalation of its own, which may come
	// minutes apart (days-before-review-nudge 0).
	turnPasses map[int][]time.Time
	// closedSince is the start of a listing of closed PRs this run read
	// whole (the closure audit's, closedAsked), their notices noted:
	// recentlyClosed reads none. The earlier when both did (readClosed).
	closedSince time.Time
}

// ourNotice is one of our notices, as seen in a read of this run.
type ourNotice struct {
	id       int64
	issue    int
	kind     lifecycle.Notice
	at       time.Time // posted
	markedAt time.Time // a stale notice's mark
	actor    string
	fresh    bool // posted since this run's first post
}

// seen keeps the notices among a PR's comments, read for its
// activity anyway, so duplicates a concurrent run left (its read-back
// refused) are found at no extra cost. Who wrote them is checked at the end,
// once the run knows who it is.
func (d *dedup) seen(issue int, events []lifecycle.Event) {
	for _, e := range events {
		// A timeline shows what separates two notices that are not
		// copies: the stale label taken off (then a new mark), a reopening
		// (then a new close).
		if e.Kind == lifecycle.Reopened || e.Kind == lifecycle.Unlabeled && strings.EqualFold(e.Label, d.pol.StaleLabel) {
			if d.boundaries == nil {
				d.boundaries = map[int][]time.Time{}
			}
			d.boundaries[issue] = append(d.boundaries[issue], e.At)
		}
		if e.Kind != lifecycle.Commented || e.Notice == lifecycle.NoNotice || e.CommentID == 0 || e.Actor == "" {
			continue
		}
		if d.notices == nil {
			d.notices = map[int64]ourNotice{}
		}
		if _, ok := d.notices[e.CommentID]; !ok {
			d.notices[e.CommentID] = ourNotice{id: e.CommentID, issue: issue, kind: e.Notice, at: e.At, markedAt: e.MarkedAt, actor: e.Actor}
		}
	}
}

// turns keeps when PR issue's turn passed (lifecycle.Activity.TurnPasses):
// they separate its nudges and its escalations.
func (d *dedup) turns(issue int, passes []time.Time) {
	if d.turnPasses == nil {
		d.turnPasses = map[int][]time.Time{}
	}
	d.turnPasses[issue] = passes
}

// ops deletes copies of our notices: the same notice posted on the
// same PR by a concurrent run, or by this one and a concurrent one. Every
// run keeps the oldest and deletes the others, so the end state has exactly
// one. Two sources are looked at: the read-back of the notices posted since
// this run started (which may use rate-limit-reserve: a concurrent run may
// have spent the shared limit down to it), and every comment this run read
// anyway for the stale PRs' activity, where a copy left by earlier runs
// whose read-back was refused shows up. Only our own notices count: a
// person quoting one is never deleted.
func (d *dedup) ops(ctx context.Context) []op {
	if d.x.posts > 0 {
		since := d.x.firstPost.Add(-time.Minute)
		fresh, err := d.recent(api.MayUseReserve(ctx), since)
		if err != nil && ctx.Err() == nil { // a cancelled run says so once, elsewhere
			d.log.Printf("could not read back this run's notices to look for a concurrent run's duplicates: %s "+
				"(the markers stop later runs from posting again, and a later run deletes any duplicate left)", err)
		}
		for _, c := range fresh {
			if d.notices == nil {
				d.notices = map[int64]ourNotice{}
			}
			d.notices[c.ID] = ourNotice{id: c.ID, issue: c.Issue, kind: c.Event.Notice, at: c.Event.At,
				markedAt: c.Event.MarkedAt, actor: c.Event.Actor, fresh: true}
		}
	}
	d.recentlyClosed(api.MayUseReserve(ctx))
	type key struct {
		issue int
		kind  lifecycle.Notice
	}
	groups := map[key][]ourNotice{}
	for _, n := range d.notices {
		if lifecycle.ContainsFold(d.id.logins(), n.actor) {
			k := key{n.issue, n.kind}
			groups[k] = append(groups[k], n)
		}
	}
	var ops []op
	for k, g := range groups {
		boundaries := d.boundaries[k.issue]
		if k.kind == lifecycle.NudgeNotice || k.kind == lifecycle.EscalateNotice {
			boundaries = append(slices.Clip(boundaries), d.turnPasses[k.issue]...)
		}
		for _, c := range duplicatesIn(g, boundaries) {
			ops = append(ops, op{out: DuplicateDeleted, pr: lifecycle.PR{Number: c.issue}, comment: c.id,
				d: lifecycle.Decision{Reason: ReasonDuplicate}})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].comment < ops[j].comment })
	return ops
}

// closedWindow is how far back the duplicate clean-up looks at closed PRs:
// runs that overlapped, each closing the same PR with its own comment, did
// so within a run's span (run-timeout is at most 6 hours).
const closedWindow = lifecycle.Day

// recentlyClosed notes our notices in the histories of the PRs closed
// in the last closedWindow, most recently updated first: a concurrent run's
// copy of a closing comment is on a PR the open listings no longer show
// (about one GraphQL point a run). Nothing to look for when stalepr never
// closes; a failed read leaves the copies to a later run.
func (d *dedup) recentlyClosed(ctx context.Context) {
	if !d.pol.Closes() || d.x.got.stopped != nil || d.closedRead() {
		return
	}
	since := d.now.Add(-closedWindow)
	read := map[string]bool{}
	var pages api.Pages
	for after := ""; !read[after]; {
		read[after] = true
		page, pg, err := d.gh.ClosedPulls(ctx, d.needs.Assignees, after)
		if err == nil {
			err = bound(&pages, len(page), pg, read, "list recently closed pull requests")
		}
		if err != nil {
			if ctx.Err() == nil {
				d.log.Printf("could not list the recently closed pull requests to look for a concurrent run's duplicate closing comments: %s (a later run looks again)", err)
			}
			return
		}
		d.seenClosed(page, since)
		if pg.After == "" || pg.LastKey.Before(since) {
			return
		}
		after = pg.After
	}
}

// closedRead is whether this run read the histories of the PRs closed in
// the last closedWindow already, and noted our notices in them.
func (d *dedup) closedRead() bool {
	return !d.closedSince.IsZero() && !d.closedSince.After(d.now.Add(-closedWindow))
}

// readClosed notes a listing of the PRs closed since since, read whole.
func (d *dedup) readClosed(since time.Time) {
	if d.closedSince.IsZero() || since.Before(d.closedSince) {
		d.closedSince = since
	}
}

// seenClosed notes our notices in the histories of a page's PRs closed
// since since. A PR whose page holds only its newest events (Older) or
// that could not be read is left to a later run.
func (d *dedup) seenClosed(page []ClosedListed, since time.Time) {
	for _, c := range page {
		if c.Err == nil && c.Older == "" && !c.ClosedAt.Before(since) {
			d.seen(c.PR.Number, c.History)
		}
	}
}

// duplicatesIn returns the copies among our notices of one kind on one PR:
// oldest first (GitHub's IDs grow with time), each notice is a copy of the
// one kept before it when both were posted since this run started, or
// within duplicateWindow of it (and, for stale notices, for marks within
// that window too), and no boundary (an un-stale, a reopening) lies between
// them; otherwise it is a notice of its own, kept.
func duplicatesIn(g []ourNotice, boundaries []time.Time) []ourNotice {
	sort.Slice(g, func(i, j int) bool { return g[i].id < g[j].id })
	var out []ourNotice
	for i, kept := 1, g[0]; i < len(g); i++ {
		c := g[i]
		same := kept.fresh && c.fresh ||
			within(kept.at, c.at, duplicateWindow) && within(kept.markedAt, c.markedAt, duplicateWindow)
		if !kept.at.IsZero() && c.markedAt.Sub(kept.at) > newMarkSlack {
			// A run that marks saw no label, so it listed before the
			// kept notice's label went on: its copy's mark is earlier.
			// One marked after the kept notice was posted is a new mark's
			// (after an un-stale that only the timeline shows).
			same = false
		}
		for _, b := range boundaries {
			if b.After(kept.at) && b.Before(c.at) {
				same = false
			}
		}
		if same {
			out = append(out, c)
		} else {
			kept = c
		}
	}
	return out
}

// newMarkSlack is how far the runner's clock (a notice's marked=) may run
// ahead of GitHub's (its created_at).
const newMarkSlack = time.Minute

func within(a, b time.Time, d time.Duration) bool {
	return a.Sub(b).Abs() <= d
}

// recent lists our notices created since a time. When it finds other
// notices than the ones this run posted, another run is at work, and it may
// be deleting its duplicates while the listing is read: that can shift a
// comment out of sight between two pages, so the listing is then read again
// until two reads agree (a few times at most).
func (d *dedup) recent(ctx context.Context, since time.Time) ([]Comment, error) {
	var prev []Comment
	seen := map[int64]Comment{} // every notice any read showed
	for range 4 {
		comments, err := d.gh.RecentComments(ctx, since)
		if err != nil {
			return nil, err
		}
		if err := d.id.learnFor(ctx, commentEvents(comments), d.pol.StaleLabel); err != nil {
			return nil, err
		}
		// since filters on updated_at: an old notice edited meanwhile is
		// not a duplicate of a fresh one.
		var fresh []Comment
		for _, c := range comments {
			if c.Event.Notice != lifecycle.NoNotice && !c.Event.At.Before(since) && lifecycle.ContainsFold(d.id.logins(), c.Event.Actor) {
				fresh = append(fresh, c)
				seen[c.ID] = c
			}
		}
		if len(fresh) == d.w.posted && prev == nil || sameIDs(prev, fresh) {
			return fresh, nil
		}
		prev = fresh
	}
	// The reads never agreed: a concurrent run deleting its copies shifts
	// the pages (comments of one second are paged by number), so a read
	// may skip a notice another showed. All of them count: a copy deleted
	// meanwhile is deleted again harmlessly (404), and the oldest of each
	// PR, which every run keeps, is never one.
	all := make([]Comment, 0, len(seen))
	for _, c := range seen {
		all = append(all, c)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all, nil
}

func sameIDs(a, b []Comment) bool {
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
