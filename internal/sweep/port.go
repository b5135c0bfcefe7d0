package sweep

import (
	"context"
	"errors"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// GitHub is every call a sweep makes, in the sweep's own types: the port the
// sweep owns and an adapter implements (ghapi.Client over HTTP; a test's
// in-memory fake). Why a run stopped comes back as one of the sweep's Stop
// values, so neither the sweep nor the report needs the adapter's errors.
type GitHub interface {
	// ListPRs reads one page of the issue listing (closed PRs, label
	// hygiene): no histories.
	ListPRs(ctx context.Context, q Query, page int) ([]lifecycle.PR, Page, error)
	// OpenPulls reads one page of the open pull requests (q.State is
	// ignored) with each one's recent history; after is the cursor Page.After
	// gave ("" for the first page).
	OpenPulls(ctx context.Context, q Query, after string) ([]Listed, Page, error)
	// ClosedPulls reads one page of the closed and merged pull requests,
	// the most recently updated first, with each one's recent history, for
	// the closure audit; after is the cursor Page.After gave.
	ClosedPulls(ctx context.Context, after string) ([]ClosedListed, Page, error)
	// History reads a PR's history older than the cursor before (Listed.Older),
	// oldest first, to its beginning.
	History(ctx context.Context, number int, before string) ([]lifecycle.Event, error)
	PullHead(ctx context.Context, number int) (Head, error)
	PullNow(ctx context.Context, number int) (pr lifecycle.PR, open bool, err error)
	BranchInUse(ctx context.Context, branch string) (bool, error)
	// Permission is an account's write access to the repository (its
	// repository permission); AccessNone when it is no collaborator.
	Permission(ctx context.Context, login string) (lifecycle.Access, error)
	Viewer(ctx context.Context) (login string, err error)
	WroteAs() string // the login of the comments this run created; "" before the first
	RecentComments(ctx context.Context, since time.Time) ([]Comment, error)

	AddLabels(ctx context.Context, number int, labels []string) error
	SetLabels(ctx context.Context, number int, labels []string) error
	RemoveLabel(ctx context.Context, number int, label string) error
	PostComment(ctx context.Context, number int, body string) error
	DeleteComment(ctx context.Context, id int64) error
	Close(ctx context.Context, number int, labels []string) error
	DeleteBranch(ctx context.Context, branch string) error
	ConvertToDraft(ctx context.Context, nodeID string) error
	// Reopen reopens a closed pull request.
	Reopen(ctx context.Context, number int) error
	// RefuseWrite is a dry run's n writes, not sent but admitted and
	// counted as sent, so the dry run's budget runs out where the real
	// run's would.
	RefuseWrite(ctx context.Context, n int) error

	Usage() Usage
	RequestsLeft() int
}

// Query selects issues from the repository's issue listing.
type Query struct {
	State     string // open | closed
	Labels    []string
	Sort      string // updated | created
	Direction string // asc | desc
	Since     time.Time
	// Assignees: OpenPulls reads each PR's assignees too (a rule reads
	// them); without, its pages cost less.
	Assignees bool
}

// Listed is one open PR of an OpenPulls page and its history, as far as the
// page tells.
type Listed struct {
	PR lifecycle.PR
	// History is the PR's latest events, oldest first.
	History []lifecycle.Event
	// Older is the cursor of the history before History; "" when History is
	// the PR's whole history.
	Older string
	// Err: this PR's part of the answer is in error or incomplete. It is
	// left untouched this run, never decided on partial facts.
	Err error
}

// ClosedListed is one closed PR of a ClosedPulls page.
type ClosedListed struct {
	Listed
	Merged   bool
	ClosedAt time.Time
	// BranchGone: its head branch was deleted (or its fork): GitHub cannot
	// reopen it.
	BranchGone bool
}

// Page tells where a listing stands after one page.
type Page struct {
	Next int // 0: this was the last page (ListPRs)
	// After is the cursor of the next page; "" on the last (OpenPulls).
	After string
	// Total is how many items the whole listing holds; -1 when unknown.
	Total int
	// Unread is how many PRs of the page GitHub's answer left out or gave
	// in error with no number to name them by: they are left this run.
	Unread int
	// Viewer is the login the token acts as, as the page's query named it
	// (OpenPulls); "" when it did not.
	Viewer string
	Last   int // from the Link header; 0 when unknown or on the last page
	// Sort keys (updated_at or created_at) of the page's first and last
	// items, issues included, and whether the page was in ascending order.
	FirstKey, LastKey time.Time
	Ascending         bool
}

// Comment is an issue comment, read as a history event.
type Comment struct {
	ID        int64
	Issue     int
	UpdatedAt time.Time
	Event     lifecycle.Event
	Body      string
}

// Head describes where a PR's branch lives, for branch deletion.
type Head struct {
	Ref           string
	SHA           string
	SameRepo      bool // head.repo is the base repository (false for forks and deleted forks)
	DefaultBranch string
}

// Usage is what the run spent, for the summary.
type Usage struct {
	Requests      int
	Writes        int
	ByRoute       map[string]int
	RateLimit     int // 0: unknown
	RateRemaining int // -1: unknown
	// GraphQL: the queries sent (counted in Requests too) and the points
	// they cost, from GitHub's rateLimit answer; the points bucket's limit
	// (0: unknown) and what is left of it (-1: unknown).
	Queries         int
	Points          int
	PointsLimit     int
	PointsRemaining int
}

// Stop is why a run stopped making requests: a limit, the run's deadline.
// The rest is left for the next run. An implementation of GitHub returns an
// error that errors.Is finds a Stop in (the value itself, wrapped, or a
// *StopError); a run cancelled (a cancelled workflow, SIGTERM) ends with
// the context's own context.Canceled.
type Stop int

// The stops. Their texts are what the report says a run stopped on.
const (
	Budget      Stop = iota + 1 // operations-per-run reached
	RateReserve                 // rate-limit-reserve reached
	RateLimit                   // GitHub's primary rate limit used up
	Secondary                   // GitHub's secondary rate limit
	Deadline                    // run-timeout reached
)

var stopText = map[Stop]string{
	Budget:      "operations-per-run reached",
	RateReserve: "rate-limit reserve reached",
	RateLimit:   "rate limit exceeded",
	Secondary:   "secondary rate limit",
	Deadline:    "run-timeout reached",
}

func (s Stop) Error() string { return stopText[s] }

// StopError is an adapter's own error that means a stop: errors.Is finds
// its Reason, errors.As and the text still see the error it carries.
type StopError struct {
	Reason Stop
	Err    error
}

func (e *StopError) Error() string        { return e.Err.Error() }
func (e *StopError) Unwrap() error        { return e.Err }
func (e *StopError) Is(target error) bool { return target == e.Reason }

// IsStop reports whether err means the run must stop making requests: a
// Stop, or the run being cancelled. A slow attempt's own timeout
// (context.DeadlineExceeded) is a transient failure of that request, not
// this.
func IsStop(err error) bool {
	for s := range stopText {
		if errors.Is(err, s) {
			return true
		}
	}
	return errors.Is(err, context.Canceled)
}

// Refusals GitHub answers that a sweep acts on: the implementation wraps
// them, the sweep finds them with errors.Is.
var (
	// ErrBranchKept: GitHub refused to delete a branch it protects.
	ErrBranchKept = errors.New("GitHub keeps the branch")
	// ErrWriteRefused: GitHub refused a write to this token for want of
	// permission (a 403 "Resource not accessible by integration"). Every
	// later write would be refused too, so the run stops at the first.
	ErrWriteRefused = errors.New("GitHub refuses this token's writes")
	// ErrDraftForbidden: GitHub refused convertPullRequestToDraft to this token.
	// It does so for a workflow's GITHUB_TOKEN whatever its permissions say
	// (HTTP 200 with a FORBIDDEN error), so its text says which token works.
	ErrDraftForbidden = errors.New("GitHub refuses to convert pull requests to drafts with this token " +
		"(FORBIDDEN: Resource not accessible by integration), whatever the workflow's permissions say. " +
		"close-action: draft needs a personal access token (classic with the repo scope, or fine-grained with " +
		"Pull requests: read and write) or a GitHub App token in repo-token; or use close-action: close")
)

// reserveKey marks a context whose requests may spend rate-limit-reserve.
type reserveKey struct{}

// MayUseReserve returns a context whose requests may go below
// rate-limit-reserve, down to the last request of the window (never past
// it). It is for the sweep's clean-up of its own duplicates: a bounded
// handful of requests that keep a promise even when a concurrent run spent
// the shared limit. operations-per-run, dry run and a stop on a limit GitHub
// enforced still hold.
func MayUseReserve(ctx context.Context) context.Context {
	return context.WithValue(ctx, reserveKey{}, true)
}

// ReserveAllowed reports whether ctx came from MayUseReserve; the
// implementation of GitHub reads it.
func ReserveAllowed(ctx context.Context) bool {
	ok, _ := ctx.Value(reserveKey{}).(bool)
	return ok
}
