// Package config turns the action's inputs into a validated Config. It owns
// every input's name, default and description (action.yml and the README are
// kept equal to this table by tests) and reports all bad inputs at once,
// before any request is made.
package config

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
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

// Repository is "owner/name".
func (c Config) Repository() string { return c.Owner + "/" + c.Repo }

// redacted is Config without its methods, so printing it cannot recurse,
// with the token replaced.
type redacted Config

func (c Config) redacted() redacted {
	r := redacted(c)
	if r.Token != "" {
		r.Token = "***"
	}
	return r
}

// String prints every field, the token as ***.
func (c Config) String() string { return fmt.Sprintf("%+v", c.redacted()) }

// GoString is %#v: Go syntax, the token as "***".
func (c Config) GoString() string {
	return "config.Config" + strings.TrimPrefix(fmt.Sprintf("%#v", c.redacted()), "config.redacted")
}

// Format makes every verb (%v, %+v, %#v, %s, %q, %d, ...) print the
// redacted forms: a plain struct would show the token under %d or %x.
func (c Config) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		_, _ = io.WriteString(f, c.GoString())
	case verb == 'q':
		_, _ = io.WriteString(f, strconv.Quote(c.String()))
	default:
		_, _ = io.WriteString(f, c.String())
	}
}

// LogValue is how log/slog prints a Config: the token as ***.
func (c Config) LogValue() slog.Value {
	r := c.redacted()
	return slog.GroupValue(
		slog.String("repository", c.Repository()),
		slog.String("api_url", r.APIURL),
		slog.String("token", r.Token),
		slog.Any("policy", r.Policy),
		slog.Bool("debug_only", r.DebugOnly),
		slog.Int("operations_per_run", r.OperationsPerRun),
		slog.Int("rate_limit_reserve", r.RateLimitReserve),
		slog.Duration("write_interval", r.WriteInterval),
		slog.Bool("delete_branch", r.DeleteBranch),
		slog.String("close_label", r.CloseLabel),
		slog.Any("labels_to_remove_when_stale", r.LabelsToRemoveWhenStale),
		slog.Any("labels_to_add_when_unstale", r.LabelsToAddWhenUnstale),
		slog.Any("labels_to_remove_when_unstale", r.LabelsToRemoveWhenUnstale),
		slog.Bool("ascending", r.Ascending),
		slog.String("sort_by", r.SortBy),
		slog.Bool("enable_statistics", r.EnableStatistics),
		slog.String("stale_message", r.StaleMessage),
		slog.String("close_message", r.CloseMessage),
	)
}

// MarshalJSON encodes the Config with the token as ***.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(c.redacted()) }
