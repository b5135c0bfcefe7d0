package sweep

import (
	"context"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// GitHub is every call a sweep makes, in the sweep's own types: the port the
// sweep owns and an adapter implements (ghapi.Client over HTTP; a test's
// in-memory fake). It is three roles: the reads, the writes and the meter
// that keeps the run's count. Why a run stopped comes back as an api.Stop,
// so neither the sweep nor the report needs the adapter's errors.
type GitHub interface {
	Reader
	Writer
	Meter
}

// Reader is what a sweep reads: the listings, a PR's history and state, an
// account's access, its own comments.
type Reader interface {
	// ListPRs reads one page of the issue listing (closed PRs, label
	// hygiene): no histories.
	ListPRs(ctx context.Context, q Query, page int) ([]lifecycle.PR, Page, error)
	// OpenPulls reads one page of the open pull requests (q.State is
	// ignored) with each one's recent history; after is the cursor Page.After
	// gave ("" for the first page).
	OpenPulls(ctx context.Context, q Query, after string) ([]Listed, Page, error)
	// ClosedPulls reads one page of the closed and merged pull requests,
	// the most recently updated first, with each one's recent history, for
	// the closure audit (and their assignees, when a rule reads them);
	// after is the cursor Page.After gave.
	ClosedPulls(ctx context.Context, assignees bool, after string) ([]ClosedListed, Page, error)
	// Pull reads one pull request as a listing page gives it, and whether
	// it is open (the event path's read); with checks, its head commit's
	// checks too (as Checks reads them). A closed one comes as the closed
	// listing gives it (merged, its branch gone): a reopen command's facts.
	Pull(ctx context.Context, number int, checks bool) (ClosedListed, bool, error)
	// Checks reads the head commits' check rollups of the PRs numbers
	// (at most ChecksPerRead), with whether each check is required for its
	// PR, in one request: by number; a PR it could not read is absent
	// (unknown, which puts nobody on a turn). An error that is no stop
	// leaves them all unknown.
	Checks(ctx context.Context, numbers []int) (map[int]lifecycle.Checks, error)
	// Links reads the issues each of the PRs numbers (at most
	// LinksPerRead) closes when merged, with their labels, assignees and
	// authors (the intake clock), in one request: by number; a PR it could
	// not read is absent (unknown, which keeps it out of the class). An
	// error that is no stop leaves them all unknown.
	Links(ctx context.Context, numbers []int) (map[int]lifecycle.Links, error)
	// BusyStatuses reads the GitHub status of logins (at most
	// StatusesPerRead) in one request: those whose status says busy, with
	// its expiresAt. An account GitHub does not know or that set no status
	// is not among them (not known busy). An error that is no stop leaves
	// them all unknown.
	BusyStatuses(ctx context.Context, logins []string) ([]lifecycle.Busy, error)
	// History reads a PR's history older than the cursor before (Listed.Older),
	// oldest first, to its beginning.
	History(ctx context.Context, number int, before string) ([]lifecycle.Event, error)
	PullHead(ctx context.Context, number int) (Head, error)
	// Ancestry reads the newest commits on PR number's head, each with its
	// first parent (lifecycle.Options.Ancestry): for a PR whose history
	// cannot tell who moved its head since the mark.
	Ancestry(ctx context.Context, number int) ([]lifecycle.Commit, error)
	// PullsNow reads the PRs listed (at most NowPerRead) afresh, in one
	// request: each one's state, lock, labels, assignees, milestone and
	// updatedAt, and its timeline events dated after the listed PR's
	// UpdatedAt. A PR whose part of the answer cannot prove what it says
	// (null, in error, no updatedAt, a null label or event, more labels
	// than one page) comes back with Now.Err set; an error that is no
	// stop leaves them all unread.
	PullsNow(ctx context.Context, listed []lifecycle.PR) (map[int]Now, error)
	BranchInUse(ctx context.Context, branch string) (bool, error)
	// BranchHead reads the commit a branch of the repository points at
	// now; exists is false (and no error) when there is no such branch.
	BranchHead(ctx context.Context, branch string) (sha string, exists bool, err error)
	// Permission is an account's write access to the repository (its
	// repository permission); AccessNone when it is no collaborator.
	Permission(ctx context.Context, login string) (lifecycle.Access, error)
	// Collaborators is the write access of every account with access to
	// the repository, by lower-case login, in one paged read; when
	// complete, an account it does not hold has none, otherwise (GitHub's
	// pages ended short of their own count) such an account's access is
	// unknown. api.ErrPermissionRefused when GitHub refuses this token the
	// listing.
	Collaborators(ctx context.Context) (access map[string]lifecycle.Access, complete bool, err error)
	Viewer(ctx context.Context) (login string, err error)
	RecentComments(ctx context.Context, since time.Time) ([]Comment, error)
	// LabelledIssues reads the issues (not PRs) carrying label, open and
	// closed, oldest first: the dashboard issue's one read.
	LabelledIssues(ctx context.Context, label string) ([]api.Issue, error)
}

// Writer is every change a sweep makes on GitHub.
type Writer interface {
	AddLabels(ctx context.Context, number int, labels []string) error
	SetLabels(ctx context.Context, number int, labels []string) error
	RemoveLabel(ctx context.Context, number int, label string) error
	PostComment(ctx context.Context, number int, body string) error
	DeleteComment(ctx context.Context, id int64) error
	Close(ctx context.Context, number int, labels []string) error
	DeleteBranch(ctx context.Context, branch string) error
	ConvertToDraft(ctx context.Context, nodeID string) error
	// RequestReviewers requests the review of logins (and teams, as
	// org/team) on a pull request, un-requesting nobody.
	RequestReviewers(ctx context.Context, number int, logins []string) error
	// Reopen reopens a closed pull request and, unless labels is nil,
	// sets its labels in the same request (as Close closes).
	Reopen(ctx context.Context, number int, labels []string) error
	// CreateIssue opens an issue with its labels in the one request. It is
	// not retried: a lost answer may hide an issue created.
	CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error)
	// EditIssue replaces an issue's body and, with close, closes it as not
	// planned, in one request.
	EditIssue(ctx context.Context, number int, body string, close bool) error
}

// Meter is the run's bookkeeping, kept by the adapter: what the run spent
// and may still spend, a dry run's writes counted as sent, and the account
// its writes act as.
type Meter interface {
	// RefuseWrite is a dry run's n writes, not sent but admitted and
	// counted as sent, so the dry run's budget runs out where the real
	// run's would.
	RefuseWrite(ctx context.Context, n int) error
	Usage() api.Usage
	RequestsLeft() int
	// Hold sets n requests of the budget aside for a step after the sweep
	// (the dashboard's): until release, they count as spent.
	Hold(n int) (release func())
	WroteAs() string // the login of the comments this run created; "" before the first
}

// Each stage holds only the calls it makes (its room), as prow's plugins
// each hold the narrow client they use: what a stage may send is read off
// its field, and a test's fake of one stage fills only that. Every room is
// part of GitHub (the signatures are the roles' above, whose comments
// say what each does), so the whole port fills each.

// sweeperGitHub is the sweeper's: the open listing and a PR's reads
// (sweep.go, ancestry.go, event.go), the clean-ups' issue listing
// (tidy.go, reopened.go), and the budget the listing plans within.
type sweeperGitHub interface {
	ListPRs(ctx context.Context, q Query, page int) ([]lifecycle.PR, Page, error)
	OpenPulls(ctx context.Context, q Query, after string) ([]Listed, Page, error)
	Pull(ctx context.Context, number int, checks bool) (ClosedListed, bool, error)
	Checks(ctx context.Context, numbers []int) (map[int]lifecycle.Checks, error)
	History(ctx context.Context, number int, before string) ([]lifecycle.Event, error)
	Ancestry(ctx context.Context, number int) ([]lifecycle.Commit, error)
	Viewer(ctx context.Context) (login string, err error)
	Usage() api.Usage
	RequestsLeft() int
	WroteAs() string
}

// writerGitHub is the writer's (steps.go, fresh.go): every write, and the
// reads its steps send before them.
type writerGitHub interface {
	Writer
	Pull(ctx context.Context, number int, checks bool) (ClosedListed, bool, error)
	PullHead(ctx context.Context, number int) (Head, error)
	PullsNow(ctx context.Context, listed []lifecycle.PR) (map[int]Now, error)
	BranchInUse(ctx context.Context, branch string) (bool, error)
	BranchHead(ctx context.Context, branch string) (sha string, exists bool, err error)
	Viewer(ctx context.Context) (login string, err error)
	Usage() api.Usage
}

// executorGitHub is the executor's (plan.go): the meter it runs the
// operations within, and who the first comment is posted as.
type executorGitHub interface {
	RefuseWrite(ctx context.Context, n int) error
	Usage() api.Usage
	RequestsLeft() int
	WroteAs() string
	Viewer(ctx context.Context) (login string, err error)
}

// identityGitHub is identity's: who the token acts as.
type identityGitHub interface {
	Viewer(ctx context.Context) (login string, err error)
	WroteAs() string
}

// accessGitHub is access's: the accounts' write access, and what reading
// it cost.
type accessGitHub interface {
	Permission(ctx context.Context, login string) (lifecycle.Access, error)
	Collaborators(ctx context.Context) (access map[string]lifecycle.Access, complete bool, err error)
	Usage() api.Usage
}

// availabilityGitHub is availability's: the reviewers' GitHub status.
type availabilityGitHub interface {
	BusyStatuses(ctx context.Context, logins []string) ([]lifecycle.Busy, error)
}

// linkerGitHub is the linker's (links.go): the intake clock's links.
type linkerGitHub interface {
	Links(ctx context.Context, numbers []int) (map[int]lifecycle.Links, error)
}

// rechecksGitHub is rechecks': the checks of the PRs about to be nudged.
type rechecksGitHub interface {
	Checks(ctx context.Context, numbers []int) (map[int]lifecycle.Checks, error)
}

// auditorGitHub is the auditor's: the closed listing, and what replaying a
// close needs of a PR.
type auditorGitHub interface {
	ClosedPulls(ctx context.Context, assignees bool, after string) ([]ClosedListed, Page, error)
	History(ctx context.Context, number int, before string) ([]lifecycle.Event, error)
	Checks(ctx context.Context, numbers []int) (map[int]lifecycle.Checks, error)
}

// commanderGitHub is the commander's: the closed PRs a reopen command may
// be on.
type commanderGitHub interface {
	ClosedPulls(ctx context.Context, assignees bool, after string) ([]ClosedListed, Page, error)
}

// dedupGitHub is dedup's: our notices read back, on the open PRs and the
// recently closed ones.
type dedupGitHub interface {
	RecentComments(ctx context.Context, since time.Time) ([]Comment, error)
	ClosedPulls(ctx context.Context, assignees bool, after string) ([]ClosedListed, Page, error)
}

// keeperGitHub is the keeper's (dashboard.go): the dashboard's one read,
// and the requests set aside for it. Its writes are the writer's.
type keeperGitHub interface {
	LabelledIssues(ctx context.Context, label string) ([]api.Issue, error)
	Hold(n int) (release func())
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
	// Checks: OpenPulls reads each PR's head commit's checks too, and
	// whether the failing ones are required (author-turn-when-checks-fail).
	Checks bool
}

// ChecksPerRead is the most PRs one Reader.Checks reads: as one request
// of one point (one connection each, GitHub's cost rule).
const ChecksPerRead = 100

// LinksPerRead is the most PRs one Reader.Links reads: seven connections
// each (the references, each issue's labels and assignees), one point.
const LinksPerRead = 21

// NowPerRead is the most PRs one Reader.PullsNow reads: three
// connections each (labels, assignees, timeline), one point.
const NowPerRead = 49

// Now is a PR as a fresh read (Reader.PullsNow) found it, just before the
// writes that act on it.
type Now struct {
	PR   lifecycle.PR
	Open bool
	// Since are its timeline events dated after the listing's UpdatedAt,
	// oldest first: what happened to it since it was listed.
	Since []lifecycle.Event
	// Err: the answer cannot prove what the PR is now; it is left for the
	// next run, as after a failed read.
	Err error
}

// StatusesPerRead is the most accounts one Reader.BusyStatuses reads:
// aliased user fields of one query, no connection, one point.
const StatusesPerRead = 100

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
	// ChecksFailing: the page read the head commit's check rollup
	// (Query.Checks) and GitHub's combined state is failing, so its checks
	// are to be read (Reader.Checks) before the PR is decided.
	ChecksFailing bool
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
