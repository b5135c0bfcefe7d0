package fakegithub

import (
	"math/rand/v2"
	"strconv"
	"time"
)

// Synthetic returns a server holding n issues and pull requests with a
// realistic mix, reproducible from seed, dated relative to now (the
// server's Clock is stopped at now). See AddSynthetic.
func Synthetic(n int, seed int64, now time.Time) *Server {
	s := New(Options{Clock: NewClock(now.UTC().Truncate(time.Second))})
	s.AddSynthetic(n, seed)
	return s
}

// Synthetic mix, in percent of items.
const (
	synIssuePct  = 8  // plain issues
	synStalePct  = 5  // already labelled stale
	synTailPct   = 15 // inactive for months (91-600 days), not yet labelled
	synDraftPct  = 5
	synPinnedPct = 2
)

var synTitles = []string{
	"Fix widget alignment", "Add retry to the client", "Refactor the storage layer", "Bump dependency",
	"Improve error messages", "Document the API", "Speed up serialization", "Handle nil widgets",
	"Support metric units", "Tweak the CI matrix", "Add dark mode", "Remove deprecated flags",
}

var synBodies = []string{"LGTM", "Could you rebase?", "Any update on this?", "Thanks, looking now.", "Still working on it."}

// AddSynthetic adds n items numbered after the existing ones, dated
// relative to the server's clock:
//   - most pull requests updated within the last 90 days;
//   - a tail (about 15%) inactive for 91-600 days;
//   - about 5% labelled stale by the token identity with a marked notice:
//     40% labelled 31-120 days ago and untouched since, 25% labelled 1-29
//     days ago with only the notice since, 15% with its author's comment after
//     the notice, 10% with a bot's comment after it, 10% with a push after it;
//   - about 5% drafts, 2% labelled pinned, 8% plain issues, a few with a
//     milestone or an assignee, some by dependabot[bot].
//
// Timelines are consistent: updated_at is the latest event or comment (or
// creation). It builds 50,000 items in well under a second.
func (s *Server) AddSynthetic(n int, seed int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := newSynth(s, seed)
	s.db.ensureLabel("stale")
	s.db.ensureLabel("pinned")
	s.db.ensureMilestone("v2.0")
	for i := 0; i < n; i++ {
		g.add()
	}
	s.db.version++
}

// synth draws AddSynthetic's items from one seeded stream. The order of the
// draws is what makes a seed reproduce the same items: keep it.
type synth struct {
	s       *Server
	rng     *rand.Rand
	now     time.Time
	authors []User
	bots    []User
	// commenters are who comments on others' PRs: four in five times one
	// of the project's 12 maintainers (members), else a passer-by with no
	// tie to the repository (NONE), as on a real project's queue.
	commenters []User
}

func newSynth(s *Server, seed int64) *synth {
	g := &synth{s: s, rng: rand.New(rand.NewPCG(uint64(seed), 0x5ca1ab1e)), now: s.nowLocked(),
		authors: make([]User, 200), bots: []User{Bot("codecov[bot]"), Bot("renovate[bot]"), Bot("dependabot[bot]")}}
	for i := range g.authors {
		g.authors[i] = Person("dev" + strconv.Itoa(i+1))
	}
	for i := range 60 {
		login := "maint" + strconv.Itoa(i%12+1)
		if i >= 48 {
			login = "passer" + strconv.Itoa(i-47)
		} else {
			s.members[login] = true
		}
		g.commenters = append(g.commenters, Person(login))
	}
	return g
}

func (g *synth) ago(days int) time.Time {
	return g.now.Add(-time.Duration(days)*24*time.Hour - time.Duration(g.rng.IntN(86400))*time.Second)
}

func (g *synth) person() User { return g.authors[g.rng.IntN(len(g.authors))] }

func (g *synth) commenter() User { return g.commenters[g.rng.IntN(len(g.commenters))] }

func (g *synth) body() string { return synBodies[g.rng.IntN(len(synBodies))] }

// add adds the next item with its history.
func (g *synth) add() {
	s := g.s
	num := s.db.nextNum
	pct := g.rng.IntN(100)
	is := g.issue(num)
	stale := pct < synStalePct
	last, markedDays, kind := g.activity(pct)
	created := last + g.rng.IntN(120)
	is.CreatedAt = g.ago(created)
	is.UpdatedAt = is.CreatedAt
	s.addLocked(is)
	rec := s.db.byNum[num]

	lastAt := g.ago(last)
	if lastAt.Before(rec.CreatedAt) {
		lastAt = rec.CreatedAt
	}
	if last != created {
		g.touch(rec, num, lastAt)
	}
	if stale {
		g.markStale(rec, num, markedDays, kind)
	}
}

// issue draws an item's kind, author, title and labels.
func (g *synth) issue(num int) Issue {
	is := Issue{Number: num, Title: synTitles[g.rng.IntN(len(synTitles))] + " (#" + strconv.Itoa(num) + ")",
		User: g.person(), IsPR: g.rng.IntN(100) >= synIssuePct}
	if is.IsPR && g.rng.IntN(100) < 5 {
		is.User = Bot("dependabot[bot]")
		is.Title = "Bump module " + strconv.Itoa(num)
	}
	is.Draft = is.IsPR && g.rng.IntN(100) < synDraftPct
	if g.rng.IntN(100) < synPinnedPct {
		is.Labels = []string{"pinned"}
	}
	switch r := g.rng.IntN(100); {
	case r < 2:
		is.Milestone = "v2.0"
	case r < 5:
		is.Assignees = []string{g.person().Login}
	}
	return is
}

// activity draws the last human touch (days ago), and for a stale item
// when it was marked and which follow-up it gets (kind).
func (g *synth) activity(pct int) (last, markedDays, kind int) {
	kind = g.rng.IntN(100) // follow-up of a stale item
	switch {
	case pct < synStalePct:
		if kind < 40 {
			markedDays = 31 + g.rng.IntN(90)
		} else {
			markedDays = 1 + g.rng.IntN(29)
		}
		last = markedDays + 90 + g.rng.IntN(200) // marked after 90 idle days
	case pct < synStalePct+synTailPct:
		last = 91 + g.rng.IntN(510)
	default:
		last = g.rng.IntN(90)
	}
	return last, markedDays, kind
}

// touch adds the last human touch: a person's comment, the author's push
// (on an issue, comment) or comment.
func (g *synth) touch(rec *issueRec, num int, at time.Time) {
	s := g.s
	switch g.rng.IntN(3) {
	case 0:
		s.db.addCommentLocked(rec, g.commenter(), at, g.body())
	case 1:
		if rec.IsPR {
			s.db.addEventLocked(rec, Event{Type: EventCommitted, At: at, SHA: fakeSHA("commit", int64(num)),
				Message: "Update", AuthorName: rec.User.Login, AuthorEmail: rec.User.Login + "@users.noreply.github.com"})
		} else {
			s.db.addCommentLocked(rec, rec.User, at, g.body())
		}
	default:
		s.db.addCommentLocked(rec, rec.User, at, g.body())
	}
}

// markStale labels the item stale as the token identity, with its notice,
// then adds one of five follow-ups (kind).
func (g *synth) markStale(rec *issueRec, num, markedDays, kind int) {
	s, me, now := g.s, g.s.identity, g.now
	marked := g.ago(markedDays).Truncate(time.Second)
	s.db.addCommentLocked(rec, me, marked, StaleNoticeBody("stale", marked, rec.headAt(marked)))
	s.db.addLabelsLocked(rec, me, marked, []string{"stale"})
	after := marked.Add(time.Duration(1+g.rng.IntN(int(now.Sub(marked)/time.Hour)+1)) * time.Hour / 2)
	if after.After(now) {
		after = now
	}
	switch {
	case kind < 65: // untouched since the notice
	case kind < 80:
		s.db.addCommentLocked(rec, rec.User, after, "Still working on this!") // the author answers the notice
	case kind < 90:
		s.db.addCommentLocked(rec, g.bots[g.rng.IntN(len(g.bots))], after, "Coverage report updated.")
	default:
		if rec.IsPR {
			s.db.addEventLocked(rec, Event{Type: EventCommitted, At: after, SHA: fakeSHA("commit", int64(num)+1<<32),
				Message: "Address review", AuthorName: rec.User.Login, AuthorEmail: rec.User.Login + "@users.noreply.github.com"})
		} else {
			s.db.addCommentLocked(rec, rec.User, after, "Bump.")
		}
	}
}

// The texts actions/stale posted in AddStaleBotHistory: a project's own,
// as most set them (its stale-pr-message has no default).
const (
	synBotStaleNotice = "This pull request has been automatically marked as stale because it has not had recent activity. It will be closed in 7 days if no further activity occurs."
	synBotCloseNotice = "This pull request has been closed because it has not had recent activity."
)

// AddStaleBotHistory makes the queue AddSynthetic built look like the day
// a repository switches from actions/stale, reproducible from seed:
//   - about a third of the open pull requests inactive for over 60 days
//     carry actions/stale's label and notice, posted by github-actions[bot]
//     (the account a workflow's GITHUB_TOKEN acts as, stalepr's too) 1-30
//     days ago, without stalepr's marker;
//   - 40 pull requests actions/stale closed in the last 30 days with its
//     label on, half with its closing comment: some while they waited on
//     their reviewers (never reviewed), the others after a maintainer asked
//     for changes;
//   - about a quarter of the open pull requests come from forks.
func (s *Server) AddStaleBotHistory(seed int64) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x57a1e))
	bot := Bot("github-actions[bot]")
	now := s.Now()
	ago := func(lo, hi int) time.Time {
		return now.Add(-time.Duration(lo)*24*time.Hour - time.Duration(rng.IntN((hi-lo)*86400))*time.Second).Truncate(time.Second)
	}
	for _, is := range s.Issues() {
		if !is.IsPR || is.State != "open" {
			continue
		}
		if rng.IntN(4) == 0 && is.User.Type != "Bot" {
			s.Edit(is.Number, func(e *Issue) { e.HeadRepo = is.User.Login + "/" + s.repo })
		}
		if is.HasLabel("stale") || is.Draft || now.Sub(is.UpdatedAt) < 60*24*time.Hour || rng.IntN(3) != 0 {
			continue
		}
		at := ago(1, 30)
		s.Comment(is.Number, bot, at, synBotStaleNotice)
		s.Label(is.Number, bot, at.Add(time.Second), "stale")
	}
	maint := Person("maint1")
	for i := 0; i < 40; i++ {
		closed := ago(1, 29)
		marked := closed.Add(-7 * 24 * time.Hour)
		author := Person("dev" + strconv.Itoa(1+rng.IntN(200)))
		n := s.AddPR(Issue{Title: synTitles[rng.IntN(len(synTitles))] + " (closed as stale)", User: author,
			CreatedAt: marked.Add(-time.Duration(60+rng.IntN(200)) * 24 * time.Hour), UpdatedAt: marked.Add(-60 * 24 * time.Hour)})
		if i%2 == 1 { // the author's turn: a maintainer asked for changes
			s.Review(n, maint, marked.Add(-61*24*time.Hour), "CHANGES_REQUESTED", "Please add a test.")
		}
		s.Comment(n, bot, marked, synBotStaleNotice)
		s.Label(n, bot, marked.Add(time.Second), "stale")
		if i%4 < 2 {
			s.Comment(n, bot, closed, synBotCloseNotice)
		}
		s.Close(n, bot, closed.Add(time.Second), "")
	}
}
