package config

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Config is everything one run needs, already validated.
type Config struct {
	Token  Token `json:"-"` // prints as ***; json would show a string as it is, so it is left out
	Owner  string
	Repo   string
	APIURL string // GITHUB_API_URL; empty means https://api.github.com/

	Policy lifecycle.Policy

	// The message inputs as set (see package notice): their defaults are
	// notice's table, by the reason each text is posted for (notice.Text).
	StaleMessage string // empty: mark without comment
	CloseMessage string // empty: close without comment
	CloseLabel   string // added when closing; empty: none
	NudgeMessage string // review-nudge-message template; empty: the nudge only labels

	LabelsToRemoveWhenStale   []string
	LabelsToAddWhenUnstale    []string
	LabelsToRemoveWhenUnstale []string

	DeleteBranch      bool
	DebugOnly         bool
	OperationsPerRun  int           // cap on API requests of one run, reads and writes
	NudgesPerRun      int           // cap on the review nudges one run posts
	EscalationsPerRun int           // cap on the review escalations one run posts
	RateLimitReserve  int           // stop when x-ratelimit-remaining falls below this
	WriteInterval     time.Duration // pause between writes, as GitHub asks
	DashboardIssue    string        // title of the dashboard issue; empty: none
	// The closure audit: the PRs a stale bot closed in the last
	// Policy.AuditClosedDays days (0: off), replayed to their close; with
	// ReopenWronglyClosed those closed on the reviewers' or maintainers'
	// turn are reopened with ReopenMessage.
	ReopenWronglyClosed bool
	ReopenMessage       string
	RunTimeout          time.Duration // the whole run's deadline: what is not reached by then is left for the next run

	// The intake clock's words (Policy.Intake): the notice, never empty
	// while it is on, and the closing comment, empty for none.
	IntakeMessage, IntakeCloseMessage string

	// Warnings are non-fatal notes for the log, e.g. issue-only inputs ignored.
	Warnings []string
}

// Repository is "owner/name".
func (c Config) Repository() string { return c.Owner + "/" + c.Repo }

// Token is the GitHub token. It prints as *** under every fmt verb and in
// slog, so a Config can be logged whole; Config leaves it out of JSON. Pass
// string(t) only to what sends it to GitHub or masks it.
type Token string

// String is what slog and other Stringer users show: never the token, nor
// whether one is set.
func (Token) String() string { return "***" }

// Format covers the verbs String cannot: fmt prints a string under %d, %o,
// %c and the like as "%!d(config.Token=<the token>)" without calling String.
// %#v and %q show "***" quoted, as Go syntax.
func (t Token) Format(f fmt.State, verb rune) {
	if verb == 'q' || (verb == 'v' && f.Flag('#')) {
		_, _ = io.WriteString(f, strconv.Quote(t.String()))
		return
	}
	_, _ = io.WriteString(f, t.String())
}
