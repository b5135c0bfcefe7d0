// Package config turns the action's inputs into a validated Config. It owns
// every input's name, default and description (action.yml and the README are
// kept equal to this table by tests) and reports all bad inputs at once,
// before any request is made.
package config

import (
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Config is everything one run needs, already validated.
type Config struct {
	Token  string // never logged; String() redacts it
	Owner  string
	Repo   string
	APIURL string // GITHUB_API_URL; empty means https://api.github.com/

	Policy lifecycle.Policy

	StaleMessage string // template (see package notice); empty: mark without comment
	CloseMessage string // template; empty: close without comment
	CloseLabel   string // added when closing; empty: none

	LabelsToRemoveWhenStale   []string
	LabelsToAddWhenUnstale    []string
	LabelsToRemoveWhenUnstale []string

	DeleteBranch     bool
	DebugOnly        bool
	OperationsPerRun int           // cap on API requests of one run, reads and writes
	RateLimitReserve int           // stop when x-ratelimit-remaining falls below this
	WriteInterval    time.Duration // pause between writes, as GitHub asks

	Ascending        bool   // accepted for compatibility; see README
	SortBy           string // created | updated | comments; accepted for compatibility
	EnableStatistics bool

	// Warnings are non-fatal notes for the log, e.g. issue-only inputs ignored.
	Warnings []string
}
