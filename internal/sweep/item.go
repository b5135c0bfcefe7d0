package sweep

import (
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// What the run reports of a PR: its Item, to the Logger and in the Result.

// Logger receives the run's log lines. PR text is untrusted; the
// implementation sanitises it.
type Logger interface {
	PR(it Item)
	Printf(format string, args ...any)
}

// Item is one PR the run looked at closely enough to report.
type Item struct {
	Number int
	Title  string // untrusted: sanitise before printing
	URL    string
	// Outcome is what the run did to the PR (or, in a dry run, would);
	// Action and Reason are the rules' decision that led to it.
	Outcome Outcome
	Action  lifecycle.Action
	Reason  lifecycle.Reason
	// LastActivity is the activity the decision counted; InactiveDays derives from it.
	LastActivity time.Time
	InactiveDays int
	// OnAuthorsTurn: InactiveDays count time on the author's turn
	// (stale-clock author-turn), where a maintainer's comment is no end of
	// it, not time without activity.
	OnAuthorsTurn bool
	CloseAt       time.Time // stale PRs: when they close if nobody acts; zero: never
	Err           string    // set on Failed items: why the PR was skipped
	// Unmarked, on a Closed item: closed in the run that found it stale,
	// with no mark before (days-before-close 0).
	Unmarked bool
	// Branch is the head branch this run deleted with the PR's close, or
	// in finishing one a stopped run left (delete-branch); untrusted.
	Branch string
	// Partial, on a Failed item: a write of its operation went through
	// before the failure (the stale label on, its notice not posted), so
	// it was not left untouched; the next run finishes it. MaybeWritten:
	// its failing write's outcome is unknown (GitHub may still make it).
	Partial, MaybeWritten bool
	// SameAs, on a Failed item, is the PR that failed first with the same
	// error (its own number aside): the log and the summary say it once.
	SameAs int
	// Dashboard: the item is the dashboard issue (Result.Dashboard), not a
	// PR; Number is 0 for one not created (a dry run's, or a failed
	// creation), and Title is dashboard-issue.
	Dashboard bool
	// (Whose turn a PR is on is in its QueueItem: see Result.Queue.)
}

// with returns the items with one of the outcomes, in their order.
func with(items []Item, outs ...Outcome) []Item {
	var picked []Item
	for _, it := range items {
		for _, o := range outs {
			if it.Outcome == o {
				picked = append(picked, it)
				break
			}
		}
	}
	return picked
}
