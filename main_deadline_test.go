package main

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/testenv"
)

// TestRunDeadlineSlowServer: a server that drips every answer (here each
// request costs 8 minutes of the client's clock) holds the run no longer
// than run-timeout: the run stops cleanly, as at operations-per-run (exit 0,
// a note, the summary and outputs written, the PRs not reached left).
func TestRunDeadlineSlowServer(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	clock := clientClock()
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
		clock.Advance(8 * time.Minute)
		return nil
	})
	e := w.env(t)
	e[inputVar("run-timeout")] = "20m"
	o := runClock(context.Background(), t, e, clock)
	if o.code != ExitOK {
		t.Fatalf("exit %d, want %d (a limit, not a failure)\n%s", o.code, ExitOK, o)
	}
	if n := w.fake.Count(); n > 3 {
		t.Errorf("%d requests sent after the deadline (20m at 8m a request allows 3): %v", n, w.fake.Requests())
	}
	if !strings.Contains(o.stdout, "run-timeout reached") || !strings.Contains(o.summaryFile, "run-timeout reached") {
		t.Errorf("the log or the summary does not say the run stopped at run-timeout:\n%s", o)
	}
	if errs := testenv.ErrorLines(o.stdout); len(errs) != 0 {
		t.Errorf("a deadline is not an error, got %q", errs)
	}
	if !strings.Contains(o.outputFile, "staled-prs") {
		t.Errorf("the outputs were not written:\n%s", o)
	}
}

// TestRunDeadlineCutsAHangingRead: a read that hangs when the deadline is
// a tenth of a second away is cut at the deadline, not after its 30 s attempt timeout
// and three retries; the run stops as at a limit.
func TestRunDeadlineCutsAHangingRead(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	w, _ := newWorld(t, false)
	clock := clientClock()
	var hits atomic.Int32
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if hits.Add(1) == 1 { // the listing: afterwards a tenth of a second of the run is left
			clock.Advance(30*time.Minute - 100*time.Millisecond)
			return nil
		}
		return &fakegithub.Fault{Delay: time.Minute} // hangs until the client gives up
	})
	// A guard only: without the deadline the run would hang for minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	o := runClock(ctx, t, w.env(t), clock)
	if o.code != ExitOK {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitOK, o)
	}
	if !strings.Contains(o.stdout, "run-timeout reached") {
		t.Errorf("the log does not say the run stopped at run-timeout:\n%s", o)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("%d requests, want the listing and the one cut (no retry past the deadline)", n)
	}
}
