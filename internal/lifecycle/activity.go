package lifecycle

import (
	"sort"
	"strings"
	"time"
)

// EventKind names the timeline events the rules look at.
type EventKind int

const (
	Other EventKind = iota
	Commented
	Reviewed
	ReviewCommented
	Committed // a pushed commit: GitHub records no actor, only git dates
	ForcePushed
	Labeled
	Unlabeled
	Reopened
	Closed
	ReadyForReview
	Renamed
	ReviewRequested
	ReviewRequestRemoved
	Edited // another change a person makes: assignees, milestone, base branch
	// ConvertedToDraft: the PR became a draft (its turn passes to the author).
	ConvertedToDraft
)

// Notice identifies one of stalepr's own comments by its hidden marker.
type Notice int

const (
	NoNotice    Notice = iota
	StaleNotice        // posted when marking
	CloseNotice        // posted just before closing
	NudgeNotice        // the review nudge (see Turn): at most one per reviewers' turn
)

// Event is one entry of a PR's history, in our vocabulary.
type Event struct {
	Kind  EventKind
	At    time.Time
	Actor string // login; empty for Committed (GitHub records no pusher)
	Bot   bool   // the actor's account type is Bot; for Committed, a bot authored or committed it
	Label string // Labeled, Unlabeled
	// Commented only.
	Notice   Notice
	MarkedAt time.Time // carried by a StaleNotice: when the label was added
	MarkHead string    // carried by a StaleNotice: the head commit when the label was added

	CommentID int64 // Commented only: the comment's ID, when the source tells (0: unknown)

	// Committed only: the commit and its parents.
	SHA     string
	Parents []string
	// Association is GitHub's author_association of a comment, review or
	// review comment (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE...);
	// empty on other events, which GitHub does not qualify.
	Association string
	// ReviewRequested, ReviewRequestRemoved: the requested login or team slug.
	Reviewer string
	// Reviewed: the review's state as it stands now (GitHub rewrites a
	// dismissed approval to "dismissed").
	ReviewState string
}

// Activity is what the rules need to know beyond the listing, summarised from
// a PR's timeline or from the repository's recent comments.
type Activity struct {
	MarkedAt time.Time // the stale label was last added; zero when unknown
	// ForeignMark: that label was not stalepr's. A person added it by hand,
	// or another bot (actions/stale before a switch) did with its own
	// comment. Such a mark keeps its clock and gets no notice of ours.
	ForeignMark      bool
	NoticeAt         time.Time // our stale notice for that mark; zero when none
	MarkHead         string    // the head commit when our notice was posted; "" when unknown
	PushedAfterMark  bool      // commits no bot made reached the PR after that (see pushedSinceMark)
	CloseNoticeAt    time.Time // our closing comment for that mark; zero when none
	LastPersonAt     time.Time // the last thing a person did; zero when nothing seen
	LastPersonLogin  string
	ReopenedAt       time.Time // the last reopening, by anyone
	PendingReviewers []string  // review requested and not yet given
	AwaitingReview   bool      // the author acted last and waits for a requested review
	Approved         bool      // an approval still stands (see Approved)
	ClosedBySelf     bool      // the last close was stalepr's, after its own closing comment
	// ClosedNow: the history ends with a close, no reopening after it. The
	// rules read open PRs, so the PR was closed after it was listed (by a
	// concurrent run, by a person): it is left alone.
	ClosedNow bool
	// Partial: summarised from the repository's comments (FromComments),
	// not from the whole timeline; a mark they do not date, the timeline
	// may.
	Partial bool
	// LastEventAt is the latest thing the history explains, by anyone. An
	// updated_at later than it is a change nobody can name (a push of old
	// commits, an edit): the rules count it as a person's.
	LastEventAt time.Time
	// Turn is whose turn the PR is on (see TurnOf); the sweep fills it in
	// when the policy needs it.
	Turn Turn
}

// updateSlack is how far updated_at may lie after the last explained event
// and still be explained by it: GitHub dates both to the second, a push
// lands shortly after its commit is made.
const updateSlack = time.Minute

// foreignNoticeWindow is how close to a bot's stale label its own comment
// must be to make the mark that bot's (actions/stale comments, then labels,
// seconds apart).
const foreignNoticeWindow = 10 * time.Minute

// IsBotLogin reports whether a login belongs to a GitHub App or bot account.
// The "[bot]" suffix is reserved for them, so it is a safe fallback when the
// account type is missing.
func IsBotLogin(login string) bool {
	return strings.HasSuffix(strings.ToLower(login), "[bot]")
}

// Summarize reads a PR's history. self lists the logins stalepr writes as:
// only their comments can carry our markers. A marker in anyone else's
// comment (a quote, a paste) is an ordinary comment.
func Summarize(events []Event, staleLabel, author string, self []string) Activity {
	isSelf := func(login string) bool { return login != "" && containsFold(self, login) }
	isPerson := func(e Event) bool {
		if e.Kind == Committed {
			return !e.Bot
		}
		return e.Actor != "" && !e.Bot && !IsBotLogin(e.Actor) && !isSelf(e.Actor)
	}

	sorted := chronological(events)

	var a Activity
	var pending []string
	var closedAt time.Time
	var reviews []Review
	var markBy string
	var markByBot bool
	botComments := map[string]time.Time{} // a bot's last plain comment, by login
	for _, e := range sorted {
		if e.Kind == Commented && e.Notice != NoNotice && !isSelf(e.Actor) {
			e.Notice, e.MarkedAt = NoNotice, time.Time{}
		}
		if e.At.After(a.LastEventAt) {
			a.LastEventAt = e.At
		}
		switch e.Kind {
		case Labeled:
			if strings.EqualFold(e.Label, staleLabel) {
				a.MarkedAt, a.NoticeAt, a.CloseNoticeAt = e.At, time.Time{}, time.Time{}
				markBy, markByBot = e.Actor, e.Bot || IsBotLogin(e.Actor) || isSelf(e.Actor)
				// A bot that commented just before its label marked the PR
				// with its own notice; a person's hand label is theirs too.
				prev, commented := botComments[strings.ToLower(e.Actor)]
				a.ForeignMark = !markByBot || commented && e.At.Sub(prev) <= foreignNoticeWindow
				continue // marking is not activity, whoever does it
			}
		case Unlabeled:
			if strings.EqualFold(e.Label, staleLabel) {
				if isSelf(e.Actor) && !a.MarkedAt.IsZero() && !a.LastPersonAt.After(a.MarkedAt) {
					// We un-staled it for something a person did after the
					// mark that the timeline dates earlier (a push of old
					// commits): our un-stale is the best date it has.
					a.LastPersonAt = e.At
				}
				a.MarkedAt, a.NoticeAt, a.CloseNoticeAt, a.ForeignMark, a.MarkHead = time.Time{}, time.Time{}, time.Time{}, false, ""
			}
		case Commented:
			switch e.Notice {
			case StaleNotice:
				a.NoticeAt, a.ForeignMark, a.MarkHead = e.At, false, e.MarkHead
				if e.MarkedAt.After(a.MarkedAt) {
					a.MarkedAt = e.MarkedAt
				}
			case CloseNotice:
				a.CloseNoticeAt = e.At
			case NudgeNotice:
				// Ours, and no notice of a mark: never a bot's own notice
				// next to its label (see ForeignMark).
			default:
				if e.Bot || IsBotLogin(e.Actor) || isSelf(e.Actor) {
					botComments[strings.ToLower(e.Actor)] = e.At
					if !a.MarkedAt.IsZero() && markByBot && strings.EqualFold(e.Actor, markBy) &&
						a.NoticeAt.IsZero() && e.At.Sub(a.MarkedAt) <= foreignNoticeWindow {
						a.ForeignMark = true // its notice came right after its label
					}
				}
			}
		case Closed:
			closedAt = e.At
			a.ClosedBySelf = isSelf(e.Actor) && !a.CloseNoticeAt.IsZero()
		case Reopened:
			closedAt = time.Time{}
			a.ReopenedAt = e.At
		case ReviewRequested:
			if !containsFold(pending, e.Reviewer) {
				pending = append(pending, e.Reviewer)
			}
		case ReviewRequestRemoved:
			pending = removeFold(pending, e.Reviewer)
		case Reviewed:
			reviews = append(reviews, Review{Reviewer: e.Actor, State: e.ReviewState, At: e.At})
			// GitHub fulfils a team's request with any member's review; we
			// cannot tell membership, so any review but the author's does.
			pending = removeFold(pending, e.Actor)
			if !strings.EqualFold(e.Actor, author) {
				pending = removeTeams(pending)
			}
		}
		if isPerson(e) && e.Kind != Other && e.Kind != ReviewRequestRemoved {
			a.LastPersonAt = e.At
			a.LastPersonLogin = e.Actor
			if e.Kind == Committed {
				// GitHub records no pusher; on a PR it is nearly always the author.
				a.LastPersonLogin = author
			}
		}
	}
	a.ClosedNow = !closedAt.IsZero()
	a.PendingReviewers = pending
	a.Approved = Approved(reviews)
	a.PushedAfterMark = pushedSinceMark(events, a.MarkHead)
	a.AwaitingReview = len(pending) > 0 && author != "" && strings.EqualFold(a.LastPersonLogin, author)
	return a
}

// Explain folds in an updated_at that a PR's whole history cannot explain:
// when it lies after every event (and creation) by more than updateSlack,
// something happened that the timeline does not date (a push of commits made
// long ago, an edit), and in doubt it was a person.
func (a Activity) Explain(pr PR) Activity {
	updatedAt := pr.UpdatedAt
	if a.PushedAfterMark && !a.LastPersonAt.After(a.MarkedAt) {
		// A person pushed after the mark, when exactly the timeline cannot
		// tell: no later than updated_at.
		a.LastPersonAt, a.LastPersonLogin = updatedAt, pr.Author
	}
	if updatedAt.Sub(later(a.LastEventAt, pr.CreatedAt)) > updateSlack && updatedAt.After(a.LastPersonAt) {
		a.LastPersonAt, a.LastPersonLogin = updatedAt, ""
		a.LastEventAt = updatedAt
	}
	return a
}

// FromComments summarises a stale-labelled PR from the repository's comments,
// without reading its timeline. That is only sound when the PR's last write
// was one of those comments (updatedAt matches it within slack): then no
// label change, push or review came after it. Two cases settle it: the last
// write is a person's comment (it came after the label, whenever that was
// added), or it is our own stale notice, whose marker tells when the label
// was added. ok is false when the timeline must be read.
func FromComments(comments []Event, updatedAt time.Time, self []string, slack time.Duration) (a Activity, ok bool) {
	if len(comments) == 0 {
		return Activity{}, false
	}
	sorted := chronological(comments)
	last := sorted[len(sorted)-1]
	if updatedAt.Sub(last.At) > slack {
		return Activity{}, false
	}
	a = Summarize(sorted, "", "", self)
	lastIsPerson := !a.LastPersonAt.IsZero() && a.LastPersonAt.Equal(last.At)
	ours := last.Notice != NoNotice && containsFold(self, last.Actor)
	a.Partial = true
	switch {
	case lastIsPerson:
		return a, true
	case ours && !a.MarkedAt.IsZero():
		return a, true
	}
	return Activity{}, false
}

// pushedSinceMark reports whether commits that no bot made reached the PR
// after its mark, whose head commit our notice recorded. GitHub dates a
// commit by its git date, so a push of old commits hides among the
// timeline's dates; the commits' parents do not lie. A commit pushed on top
// of the mark's head descends from it. (Commits a force push left behind
// descend from nothing we know and are ignored; a force push after the mark
// is a dated event of its own.)
func pushedSinceMark(events []Event, markHead string) bool {
	if markHead == "" {
		return false
	}
	var commits []Event
	for _, e := range events {
		if e.Kind == Committed && e.SHA != "" && e.SHA != markHead {
			commits = append(commits, e)
		}
	}
	after := map[string]bool{markHead: true} // markHead and what descends from it
	for grew := true; grew; {
		grew = false
		for _, c := range commits {
			if after[c.SHA] {
				continue
			}
			for _, p := range c.Parents {
				if after[p] {
					after[c.SHA], grew = true, true
					if !c.Bot {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

func removeFold(list []string, s string) []string {
	out := list[:0]
	for _, v := range list {
		if !strings.EqualFold(v, s) {
			out = append(out, v)
		}
	}
	return out
}

// chronological sorts a copy of events by time. Within one second, label
// changes come first: our notice follows the label it announces, and GitHub
// dates both to the second.
func chronological(events []Event) []Event {
	sorted := append([]Event(nil), events...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		return isLabelChange(a) && !isLabelChange(b)
	})
	return sorted
}

func isLabelChange(e Event) bool { return e.Kind == Labeled || e.Kind == Unlabeled }

// TeamPrefix marks a requested team among reviewers ("team:core").
const TeamPrefix = "team:"

func removeTeams(list []string) []string {
	out := list[:0]
	for _, v := range list {
		if !strings.HasPrefix(v, TeamPrefix) {
			out = append(out, v)
		}
	}
	return out
}
