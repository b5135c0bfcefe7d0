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
	Edited // another change a person makes: draft, assignees, milestone, base branch
)

// Notice identifies one of stalepr's own comments by its hidden marker.
type Notice int

const (
	NoNotice    Notice = iota
	StaleNotice        // posted when marking
	CloseNotice        // posted just before closing
)

// Event is one entry of a PR's history, in our vocabulary.
type Event struct {
	Kind  EventKind
	At    time.Time
	Actor string // login; empty for Committed
	Bot   bool   // the actor's account type is Bot
	Label string // Labeled, Unlabeled
	// Commented only.
	Notice   Notice
	MarkedAt time.Time // carried by a StaleNotice: when the label was added
	// ReviewRequested, ReviewRequestRemoved: the requested login or team slug.
	Reviewer string
}

// Activity is what the rules need to know beyond the listing, summarised from
// a PR's timeline or from the repository's recent comments.
type Activity struct {
	MarkedAt         time.Time // the stale label was last added; zero when unknown
	NoticeAt         time.Time // our stale notice for that mark; zero when none
	CloseNoticeAt    time.Time // our closing comment for that mark; zero when none
	LastPersonAt     time.Time // the last thing a person did; zero when nothing seen
	LastPersonLogin  string
	PendingReviewers []string // review requested and not yet given
	AwaitingReview   bool     // the author acted last and waits for a requested review
	ClosedBySelf     bool     // the last close was stalepr's
}

// IsBotLogin reports whether a login belongs to a GitHub App or bot account.
// The "[bot]" suffix is reserved for them, so it is a safe fallback when the
// account type is missing.
func IsBotLogin(login string) bool {
	return strings.HasSuffix(strings.ToLower(login), "[bot]")
}

// Summarize reads a PR's history. self lists the logins stalepr may write as;
// the authors of our own notices are added to it, so a personal or app token
// is recognised without configuration.
func Summarize(events []Event, staleLabel, author string, self []string) Activity {
	selves := append([]string(nil), self...)
	for _, e := range events {
		if e.Kind == Commented && e.Notice != NoNotice && e.Actor != "" {
			selves = append(selves, e.Actor)
		}
	}
	isPerson := func(e Event) bool {
		if e.Kind == Committed {
			return true
		}
		return e.Actor != "" && !e.Bot && !IsBotLogin(e.Actor) && !containsFold(selves, e.Actor)
	}

	sorted := chronological(events)

	var a Activity
	var pending []string
	var closedAt time.Time
	for _, e := range sorted {
		switch e.Kind {
		case Labeled:
			if strings.EqualFold(e.Label, staleLabel) {
				a.MarkedAt, a.NoticeAt, a.CloseNoticeAt = e.At, time.Time{}, time.Time{}
				continue // marking is not activity, whoever does it
			}
		case Unlabeled:
			if strings.EqualFold(e.Label, staleLabel) {
				a.MarkedAt, a.NoticeAt, a.CloseNoticeAt = time.Time{}, time.Time{}, time.Time{}
			}
		case Commented:
			switch e.Notice {
			case StaleNotice:
				a.NoticeAt = e.At
				if e.MarkedAt.After(a.MarkedAt) {
					a.MarkedAt = e.MarkedAt
				}
			case CloseNotice:
				a.CloseNoticeAt = e.At
			}
		case Closed:
			closedAt = e.At
			a.ClosedBySelf = e.Actor != "" && containsFold(selves, e.Actor)
		case Reopened:
			closedAt = time.Time{}
		case ReviewRequested:
			if !containsFold(pending, e.Reviewer) {
				pending = append(pending, e.Reviewer)
			}
		case ReviewRequestRemoved:
			pending = removeFold(pending, e.Reviewer)
		case Reviewed:
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
	if !closedAt.IsZero() && closedAt.After(a.LastPersonAt) {
		// Summarize reads open PRs: one closed with no reopened event
		// after it was reopened all the same. Count it as fresh rather than
		// close it again at once.
		a.LastPersonAt, a.LastPersonLogin = closedAt, ""
	}
	a.PendingReviewers = pending
	a.AwaitingReview = len(pending) > 0 && author != "" && strings.EqualFold(a.LastPersonLogin, author)
	return a
}

// FromComments summarises a stale-labelled PR from the repository's comments
// updated inside the close window, without reading its timeline. That is only
// sound when the PR's last write was one of those comments (updatedAt matches
// it within slack): then no label change, push or review came after it. ok is
// false when the timeline must be read.
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
	switch {
	case lastIsPerson:
		// The last write on the PR is a person's comment, so it came after
		// the label, whenever that was added.
		return a, true
	case last.Notice != NoNotice && !a.MarkedAt.IsZero():
		// Nothing happened after our own notice, and the notice tells when
		// the label was added; person comments around it are in the window.
		return a, true
	}
	return Activity{}, false
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
