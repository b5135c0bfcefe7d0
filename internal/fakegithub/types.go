// Package fakegithub is a stateful fake of GitHub's REST API for one
// repository, for tests, benchmarks and the offline sandbox.
//
// A *Server is an http.Handler: serve it with httptest.NewServer and point a
// client at ts.URL+"/api/v3/" (the Enterprise Server layout go-github's
// WithEnterpriseURLs produces) or at ts.URL+"/" (both are served the same).
// Responses use GitHub's real JSON field names and shapes (checked against
// GitHub's OpenAPI description by this package's schema test), GitHub's Link
// pagination, error bodies and x-ratelimit-* headers. Time comes from an
// injected clock; every request is logged (never its Authorization header);
// faults are injected explicitly and deterministically.
//
// The fake deliberately shares no code with the project's GitHub client.
//
// Inside, each part has its own type: Server is the API tests call and the
// HTTP front (authentication, rate limits, faults, the request log); store
// keeps the repository's records; rest serves the REST routes; a call is
// one request and renders its answer's objects; gexec runs a GraphQL query
// and resolves its fields; scenarioLoad adds a scenario file.
package fakegithub

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// User is an account: a person (Type "User") or a bot (Type "Bot").
type User struct {
	Login string
	Type  string // "User" or "Bot"
}

// Person returns a human account.
func Person(login string) User { return User{Login: login, Type: "User"} }

// Bot returns a bot account. Logins of GitHub App bots end in "[bot]".
func Bot(login string) User { return User{Login: login, Type: "Bot"} }

// userFor guesses the account type from the login: "[bot]" suffix means
// Bot, and so does "Copilot" (the coding agent, and Copilot code review as
// a requested reviewer).
func userFor(login string) User {
	if strings.HasSuffix(login, "[bot]") || login == "Copilot" {
		return Bot(login)
	}
	return Person(login)
}

// Issue is an issue or a pull request (IsPR). It is a plain value: the
// server returns copies, and changes go through the Server's methods.
type Issue struct {
	Number      int
	Title       string
	Body        string
	User        User
	State       string // "open" (default) or "closed"
	StateReason string // "", "completed", "not_planned", "reopened"
	Labels      []string
	Milestone   string // title; "" for none
	Assignees   []string
	Locked      bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ClosedAt    time.Time // zero while open

	// Pull request fields, used when IsPR.
	IsPR               bool
	Draft              bool
	MergedAt           time.Time // zero: not merged
	HeadRef            string    // branch name; default "pr-<number>"
	HeadRepo           string    // "owner/name" of the head repository; "" = the base repository
	HeadRepoDeleted    bool      // head.repo is null (the fork was deleted)
	HeadSHA            string    // default: derived from the number
	BaseRef            string    // default: the repository's default branch
	RequestedReviewers []string
	RequestedTeams     []string // team slugs
	// Mergeable is GraphQL's mergeable (MERGEABLE, CONFLICTING); "" answers
	// UNKNOWN, as GitHub does before it has computed it.
	Mergeable string
	// LinkedIssues are the issues a person linked to the pull request by
	// hand (the Development sidebar); its description's closing keywords
	// link more (closingIssuesReferences).
	LinkedIssues []int
}

// HasLabel reports whether the issue carries the label (case-insensitive).
func (i Issue) HasLabel(name string) bool {
	for _, l := range i.Labels {
		if strings.EqualFold(l, name) {
			return true
		}
	}
	return false
}

// Comment is an issue comment (pull request conversation comments are issue
// comments too).
type Comment struct {
	ID        int64
	Issue     int
	User      User
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Timeline event types. Comments appear in the timeline as EventCommented
// but are kept as Comments; the other types are Events.
const (
	EventCommented            = "commented"
	EventLabeled              = "labeled"
	EventUnlabeled            = "unlabeled"
	EventClosed               = "closed"
	EventReopened             = "reopened"
	EventReviewed             = "reviewed"
	EventCommitted            = "committed"
	EventHeadRefForcePushed   = "head_ref_force_pushed"
	EventReadyForReview       = "ready_for_review"
	EventConvertToDraft       = "convert_to_draft"
	EventRenamed              = "renamed"
	EventReviewRequested      = "review_requested"
	EventReviewRequestRemoved = "review_request_removed"
	EventLineCommented        = "line-commented"
	EventMerged               = "merged"
	EventReviewDismissed      = "review_dismissed"
	// EventCommentDeleted: a comment was deleted (GraphQL's
	// CommentDeletedEvent); the comment itself leaves the timeline.
	EventCommentDeleted = "comment_deleted"
	// EventAssigned, EventUnassigned: an account was (un)assigned
	// (Event.Assignee), GraphQL's AssignedEvent and UnassignedEvent.
	EventAssigned   = "assigned"
	EventUnassigned = "unassigned"
)

// Event is one timeline entry other than a plain comment. Only the fields
// its Type uses are set.
type Event struct {
	ID    int64
	Type  string
	Actor User // who did it (reviewer for "reviewed"; unused for "committed")
	At    time.Time

	Label       string // labeled, unlabeled
	StateReason string // closed

	ReviewState string // reviewed: "APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED"
	Body        string // reviewed: review body

	SHA         string // committed, head_ref_force_pushed
	Message     string // committed
	AuthorName  string // committed (git author and committer)
	AuthorEmail string // committed
	// AuthorLogin and CommitterLogin (committed) are the GitHub accounts
	// GitHub links the commit's git author and committer to, which GraphQL
	// serves as GitActor.user (REST's timeline shows only name and e-mail).
	// "": the account whose noreply address AuthorEmail is, if any;
	// CommitterLogin "" is AuthorLogin. Push sets AuthorLogin to an author
	// written as a login (no spaces), PushAs to the account; a bot's
	// commits have no User.
	AuthorLogin    string
	CommitterLogin string

	RenameFrom string // renamed
	RenameTo   string // renamed

	Reviewer string // review_requested, review_request_removed: a user login...
	Team     string // ...or a team slug

	DeletedAuthor User // comment_deleted: who wrote the deleted comment

	Assignee User // assigned, unassigned: the account (un)assigned

	LineComments []LineComment // line-commented

	// PushedAt (committed) is when the commit reached GitHub, when later
	// than its git date At: the push moves updated_at, the timeline shows
	// only At.
	PushedAt time.Time
	// Parent (committed) is the commit it was made on: the branch's tip
	// when it was pushed (default: the commit pushed before it).
	Parent string
}

// LineComment is a pull request review comment on a line of the diff.
type LineComment struct {
	ID        int64
	User      User
	Body      string
	Path      string
	CreatedAt time.Time
}

// Clock is a settable clock for the server and tests to share; it is the
// one test clock of the project (a ghapi.Clock). Sleep moves it instead of
// waiting, and every wait is recorded, so a test can check the client's
// pacing, back-off and rate-limit waits without real time passing.
type Clock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

// NewClock returns a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t.UTC()} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d. It is not recorded as a wait.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Sleep moves the clock forward by d at once, so a client sharing the clock
// waits (pacing, backoff, rate limits) without real time passing. Like the
// real clock, it returns the context's error instead once ctx is done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	return nil
}

// Waits returns the durations Sleep was called with, in order.
func (c *Clock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.waits)
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t.UTC()
	c.mu.Unlock()
}

// Options configure a Server. The zero value is usable.
type Options struct {
	Owner         string // default "octo-org"
	Repo          string // default "widgets"
	DefaultBranch string // default "main"

	// Token, when set, is required as "Authorization: Bearer <t>" or "token <t>".
	Token string
	// Login and LoginType identify the token: every write made through the
	// API is attributed to this account. Default "github-actions[bot]", "Bot".
	Login     string
	LoginType string

	// Clock is the server's clock, shared with the test that advances it.
	Clock *Clock
	// Now is used instead when Clock is nil. With neither, the server gets a
	// *Clock stopped at the current time (truncated to seconds); Server.Clock
	// returns the clock in use (nil when Now was given).
	Now func() time.Time

	// RateLimit is the primary rate limit per hour (default 5000).
	RateLimit int
	// RateLimitStatus is the status of an exhausted primary limit: 403
	// (default) or 429.
	RateLimitStatus int
	// GraphQLRateLimit is the GraphQL points bucket per hour (default
	// 5000; a GITHUB_TOKEN has 1000), apart from the REST requests.
	GraphQLRateLimit int
}
