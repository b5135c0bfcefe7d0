package api_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stalepr/stalepr/internal/api"
)

// An adapter's error means a stop when errors.Is finds an api.Stop in it: the
// value itself, wrapped, or a *api.StopError carrying the adapter's own error.
func TestStopIsFoundThroughWrapping(t *testing.T) {
	t.Parallel()
	own := errors.New("the adapter's own rate-limit error")
	for _, tc := range []struct {
		name string
		err  error
		stop bool
		is   error // a value errors.Is must find; nil: none
	}{
		{"a stop value", api.Budget, true, api.Budget},
		{"wrapped", fmt.Errorf("list pull requests: %w", api.Deadline), true, api.Deadline},
		{"an adapter's error carrying a stop", fmt.Errorf("op: %w", &api.StopError{Reason: api.RateLimit, Err: own}), true, api.RateLimit},
		{"cancelled", fmt.Errorf("op: %w", context.Canceled), true, context.Canceled},
		{"an attempt's own timeout", fmt.Errorf("op: %w", context.DeadlineExceeded), false, nil},
		{"another error", errors.New("GitHub answered 500"), false, nil},
	} {
		if got := api.IsStop(tc.err); got != tc.stop {
			t.Errorf("%s: IsStop = %v, want %v", tc.name, got, tc.stop)
		}
		if tc.is != nil && !errors.Is(tc.err, tc.is) {
			t.Errorf("%s: errors.Is(%v, %v) = false", tc.name, tc.err, tc.is)
		}
	}
	carried := &api.StopError{Reason: api.Secondary, Err: own}
	if carried.Error() != own.Error() || !errors.Is(carried, own) || errors.Is(carried, api.RateLimit) {
		t.Errorf("api.StopError %q: want the carried error's text, errors.Is finding it and only its own reason", carried)
	}
}
