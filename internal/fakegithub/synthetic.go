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
//     days ago with only the notice since, 15% with a person's comment after
//     the notice, 10% with a bot's comment after it, 10% with a push after it;
//   - about 5% drafts, 2% labelled pinned, 8% plain issues, a few with a
//     milestone or an assignee, some by dependabot[bot].
//
// Timelines are consistent: updated_at is the latest event or comment (or
// creation). It builds 50,000 items in well under a second.
func (s *Server) AddSynthetic(n int, seed int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5ca1ab1e))
	now := s.nowLocked()
	ago := func(days int) time.Time {
		return now.Add(-time.Duration(days)*24*time.Hour - time.Duration(rng.IntN(86400))*time.Second)
	}
	authors := make([]User, 200)
	for i := range authors {
		authors[i] = Person("dev" + strconv.Itoa(i+1))
	}
	person := func() User { return authors[rng.IntN(len(authors))] }
	bots := []User{Bot("codecov[bot]"), Bot("renovate[bot]"), Bot("dependabot[bot]")}
	me := s.identity
	s.ensureLabel("stale")
	s.ensureLabel("pinned")
	s.ensureMilestone("v2.0")

	for i := 0; i < n; i++ {
		num := s.nextNum
		pct := rng.IntN(100)
		is := Issue{Number: num, Title: synTitles[rng.IntN(len(synTitles))] + " (#" + strconv.Itoa(num) + ")",
			User: person(), IsPR: rng.IntN(100) >= synIssuePct}
		if is.IsPR && rng.IntN(100) < 5 {
			is.User = Bot("dependabot[bot]")
			is.Title = "Bump module " + strconv.Itoa(num)
		}
		is.Draft = is.IsPR && rng.IntN(100) < synDraftPct
		if rng.IntN(100) < synPinnedPct {
			is.Labels = []string{"pinned"}
		}
		switch r := rng.IntN(100); {
		case r < 2:
			is.Milestone = "v2.0"
		case r < 5:
			is.Assignees = []string{person().Login}
		}

		// Activity: the last human touch, in days ago.
		var last, markedDays int
		stale := pct < synStalePct
		kind := rng.IntN(100) // follow-up of a stale item
		switch {
		case stale:
			if kind < 40 {
				markedDays = 31 + rng.IntN(90)
			} else {
				markedDays = 1 + rng.IntN(29)
			}
			last = markedDays + 90 + rng.IntN(200) // marked after 90 idle days
		case pct < synStalePct+synTailPct:
			last = 91 + rng.IntN(510)
		default:
			last = rng.IntN(90)
		}
		created := last + rng.IntN(120)
		is.CreatedAt = ago(created)
		is.UpdatedAt = is.CreatedAt
		s.addLocked(is)
		rec := s.byNum[num]

		lastAt := ago(last)
		if lastAt.Before(rec.CreatedAt) {
			lastAt = rec.CreatedAt
		}
		if last != created {
			switch rng.IntN(3) {
			case 0:
				s.addCommentLocked(rec, person(), lastAt, synBodies[rng.IntN(len(synBodies))])
			case 1:
				if rec.IsPR {
					s.addEventLocked(rec, Event{Type: EventCommitted, At: lastAt, SHA: fakeSHA("commit", int64(num)),
						Message: "Update", AuthorName: rec.User.Login, AuthorEmail: rec.User.Login + "@users.noreply.github.com"})
				} else {
					s.addCommentLocked(rec, rec.User, lastAt, synBodies[rng.IntN(len(synBodies))])
				}
			default:
				s.addCommentLocked(rec, rec.User, lastAt, synBodies[rng.IntN(len(synBodies))])
			}
		}
		if !stale {
			continue
		}
		// Labelled stale by us, then one of five follow-ups.
		marked := ago(markedDays).Truncate(time.Second)
		s.addCommentLocked(rec, me, marked, StaleNoticeBody("stale", marked, rec.headAt(marked)))
		s.addLabelsLocked(rec, me, marked, []string{"stale"})
		after := marked.Add(time.Duration(1+rng.IntN(int(now.Sub(marked)/time.Hour)+1)) * time.Hour / 2)
		if after.After(now) {
			after = now
		}
		switch {
		case kind < 65: // untouched since the notice
		case kind < 80:
			s.addCommentLocked(rec, person(), after, "Still working on this!")
		case kind < 90:
			s.addCommentLocked(rec, bots[rng.IntN(len(bots))], after, "Coverage report updated.")
		default:
			if rec.IsPR {
				s.addEventLocked(rec, Event{Type: EventCommitted, At: after, SHA: fakeSHA("commit", int64(num)+1<<32),
					Message: "Address review", AuthorName: rec.User.Login, AuthorEmail: rec.User.Login + "@users.noreply.github.com"})
			} else {
				s.addCommentLocked(rec, rec.User, after, "Bump.")
			}
		}
	}
	s.version++
}
