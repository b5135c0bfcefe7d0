package sweep

import (
	"errors"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Result is what one run did, for the log, the job summary and the outputs.
type Result struct {
	DryRun bool
	Now    time.Time
	// StaleClock is the policy's stale-clock: under author-turn the queue
	// views group the open PRs by whose turn it is (QueueItem.Turn).
	StaleClock lifecycle.StaleClock

	// Items is every PR the run reports, each with its Outcome, in the
	// order the run reached them (With picks those of some outcomes).
	Items []Item

	// EventPR is the PR a run started by an event evaluated alone
	// (Sweep.OnePR); 0 for a sweep. Such a run lists nothing: the queue
	// views of the others are the scheduled run's.
	EventPR int

	Considered int // open PRs the listings returned
	// OpenTotal is how many pull requests are open in the repository, when
	// OpenTotalKnown: every open PR was listed (ListedAll), or a listing
	// said its total (GraphQL's totalCount). A listing that stops early to
	// save requests leaves it unknown, and the report says "not counted"
	// rather than a number it does not have.
	OpenTotal      int
	OpenTotalKnown bool
	// StaleCutoff is the stale cutoff of the run: PRs last active before
	// it are due a mark; zero when marking is disabled. A listing that
	// ended at ListedUntil before it stopped for want of budget, not at
	// the cutoff.
	StaleCutoff time.Time
	// Self is the login GitHub named for the token, when the run learnt it
	// ("" when it needed not ask): later steps trust their markers by it.
	Self string
	// Queue is every open PR the listings returned, less those this run
	// closed, with its state after the run and when its next step falls
	// due: what the queue views (histogram, next 14 days, dashboard) show.
	Queue []QueueItem
	// ListedAll: the listings returned every open PR. When not, the PRs
	// without the stale label were listed, oldest activity first, up to the
	// one last active at ListedUntil (zero: none, marking is disabled): the
	// listing stops past the stale cutoff, where nothing is due.
	ListedAll   bool
	ListedUntil time.Time
	// MarksKnownUntil: when not ListedAll, every mark falling due before
	// it is in Queue (ListedUntil plus days-before-stale); later ones are
	// not known.
	MarksKnownUntil time.Time
	// QuietUntil: the run fell in a quiet period (quiet-periods), which
	// ends then; it marked, closed and nudged nothing. QuietHeld counts
	// the marks, notices and closes that fell due and wait for its end.
	QuietUntil time.Time
	QuietHeld  int
	// Audit is the closure audit's findings; nil when audit-closed-days
	// is off or the run stopped before it (NotDone says so).
	Audit *AuditResult
	// NudgesPaced counts the review nudges due that review-nudges-per-run
	// left for the next runs.
	NudgesPaced int
	// EscalationsPaced counts the review escalations due that
	// escalations-per-run (EscalationsPerRun) left for the next runs; the
	// queue says which run each goes in at this pace (QueueItem).
	EscalationsPaced, EscalationsPerRun int
	// NotDone is the parts of the run a stop left out, in run order.
	NotDone []Part
	// Dashboard is what the run did to the dashboard issue (dashboard-issue):
	// its update, one of the Dashboard outcomes or Failed, then any copy it
	// closed; empty when dashboard-issue is off.
	Dashboard []Item

	// Stopped is why the run ended before it looked at everything; nil
	// when it did not. Inspect it with errors.Is and errors.As: an api.Stop
	// (api.Budget, api.RateReserve, api.RateLimit, api.Secondary, api.Deadline),
	// context.Canceled, or a *ListingError.
	Stopped error
	Left    int // PRs known to need work that this run did not reach
	// LeftBy counts the Left PRs whose write the run had planned, each
	// once, by the outcome of its first write not sent; the rest of Left
	// still needed a read to tell.
	LeftBy map[Outcome]int
	// Unlisted: the run stopped inside a listing of open PRs, so PRs it
	// never listed may need work too; Left cannot count them.
	Unlisted bool

	// How the run learnt who may push (stale-clock: author-turn, the
	// nudge): CollaboratorPages is the collaborator listing's requests (0:
	// not read), PermissionReads the accounts read one by one.
	CollaboratorPages int
	PermissionReads   int

	Requests int // every HTTP request sent, retries included
	// WouldSend is, in a dry run, the requests a real run would have sent
	// on top of Requests: the writes it refused. Requests + WouldSend is
	// what the real run spends, and the dry run stops where it would.
	WouldSend     int
	ByRoute       map[string]int // "GET /repos/{owner}/{repo}/issues" -> count
	Writes        int
	RateLimit     int // from the last x-ratelimit-limit header; 0: unknown
	RateRemaining int // -1: unknown
	// GraphQL: the queries sent (in Requests too), the points they cost, the
	// points bucket's limit (0: unknown) and what is left (-1: unknown).
	Queries         int
	Points          int
	PointsLimit     int
	PointsRemaining int
	// Unread is how many PRs GitHub's answers left out or gave in error
	// with nothing to name them by: left untouched this run.
	Unread int
}

// ListingFailed reports a run stopped by a listing that failed.
func (r Result) ListingFailed() bool {
	var le *ListingError
	return errors.As(r.Stopped, &le)
}

// WriteRefused is the error of the write GitHub refused for want of
// permission, which stopped the run; nil when none did.
func (r Result) WriteRefused() error { return writeRefused(r.Stopped) }

// OK reports whether the run should end green: nothing failed and no listing
// was cut short by an error.
func (r Result) OK() bool {
	return len(r.Failed()) == 0 && !r.ListingFailed() && r.Unread == 0
}

// With returns the items with one of the outcomes, in the run's order.
func (r Result) With(outs ...Outcome) []Item { return with(r.Items, outs...) }

// Marked is the PRs marked stale, and those whose late notice was posted.
func (r Result) Marked() []Item { return r.With(Marked, Notified) }

// Unstaled is the PRs un-staled after a person's activity.
func (r Result) Unstaled() []Item { return r.With(Unstaled) }

// Closed is the PRs closed (or converted to drafts) as stale.
func (r Result) Closed() []Item { return r.With(Closed) }

// Stale is the PRs still stale, waiting.
func (r Result) Stale() []Item { return r.With(StillStale) }

// Skipped is the PRs exempt, filtered out or left alone.
func (r Result) Skipped() []Item { return r.With(Skipped) }

// Failed is the PRs left untouched because a request failed.
func (r Result) Failed() []Item { return r.With(Failed) }

// Cleaned is the PRs tidied after a close or a reopening.
func (r Result) Cleaned() []Item { return r.With(cleanUps...) }

// Nudged is the PRs whose review nudge was posted.
func (r Result) Nudged() []Item { return r.With(Nudged) }

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

// ReopenedOnCommand is the PRs reopened on a reopen command (or that a
// dry run would reopen).
func (r Result) ReopenedOnCommand() []Item { return r.With(ReopenedOnCommand) }

// Part is a part of a run after its own work on the open PRs, as the
// reports name it.
type Part string

const (
	PartLabelCleanUp      Part = "the stale label's clean-up on closed pull requests"
	PartCloseLabelCleanUp Part = "close-pr-label's clean-up on reopened pull requests"
	PartAudit             Part = "the closure audit"
	PartCommands          Part = "the reopen commands on closed pull requests"
)
