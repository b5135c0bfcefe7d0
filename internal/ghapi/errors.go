package ghapi

import (
	"errors"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// Errors that end a run cleanly: the rest is left for the next run.
var (
	ErrBudget       = errors.New("operations-per-run reached")
	ErrRateReserve  = errors.New("rate-limit reserve reached")
	ErrRateLimited  = errors.New("rate limit exceeded")
	ErrSecondary    = errors.New("secondary rate limit hit repeatedly")
	ErrDryRunWrite  = errors.New("dry run: write request refused")
	errTransient    = errors.New("transient failure")
	errUnknownWrite = errors.New("write outcome unknown")
)

// IsStop reports whether err means the run must stop making requests.
func IsStop(err error) bool {
	return errors.Is(err, ErrBudget) || errors.Is(err, ErrRateReserve) ||
		IsRateLimited(err) || errors.Is(err, ErrSecondary)
}

// IsRateLimited reports the primary rate limit: ours, or go-github's own
// refusal to send requests until the reset after it saw
// x-ratelimit-remaining: 0.
func IsRateLimited(err error) bool {
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	return errors.Is(err, ErrRateLimited) || errors.As(err, &rl) || errors.As(err, &ab)
}

// IsNotFound reports a 404: the PR, label or comment is gone.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

func statusOf(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}
