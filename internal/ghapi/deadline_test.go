package ghapi

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/testenv"
)

// TestDeadlineLetsAWriteInFlightFinish: a write sent before the run's
// deadline keeps its own attempt timeout, so that its outcome is known; the
// next request, past the deadline, is refused unsent, and so is a wait that
// would end past it.
func TestDeadlineLetsAWriteInFlightFinish(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	slow := func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond) // three times what the deadline leaves
		ok(w, r)
	}
	srv, n := script(t, slow)
	c, clock := newTestClient(t, srv, Limits{})
	c.t.lim.Deadline = clock.Now().Add(100 * time.Millisecond)
	if err := c.AddLabels(context.Background(), 1, []string{"stale"}); err != nil {
		t.Fatalf("the write in flight was cut: %v", err)
	}
	clock.Advance(100 * time.Millisecond)
	err := c.AddLabels(context.Background(), 2, []string{"stale"})
	if !errors.Is(err, ErrDeadline) || !api.IsStop(err) || *n != 1 {
		t.Errorf("past the deadline: err %v, %d requests; want ErrDeadline, a stop, 1 request", err, *n)
	}

	c2, clock2 := newTestClient(t, srv, Limits{})
	c2.t.lim.Deadline = clock2.Now().Add(time.Minute)
	if err := c2.t.sleep(context.Background(), 2*time.Minute); !errors.Is(err, ErrDeadline) {
		t.Errorf("a wait past the deadline: %v, want ErrDeadline", err)
	}
	if !clock2.Now().Before(c2.t.lim.Deadline) {
		t.Error("the clock moved to the deadline: the wait ran")
	}
}
