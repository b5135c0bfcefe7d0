package testenv

import (
	"os"
	"strings"
	"testing"
)

// slowVar is the environment variable that opts in to the slow tests (the
// 10,000- and 50,000-PR cost runs, the soak, building the binary). .ci/run
// sets it for one pass without the race detector; `go test ./...` and the
// -race pass run without them, so the everyday suite stays within seconds.
const slowVar = "STALEPR_SLOW"

// Slow skips tb unless the slow tests were asked for with STALEPR_SLOW=1. It
// skips under -short in any case.
func Slow(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("slow: skipped under -short")
	}
	if !SlowEnabled() {
		tb.Skipf("slow: runs only with %s=1 (as .ci/run does)", slowVar)
	}
}

// Long skips tb under -short: a load test (hundreds of PRs, a page of
// GitHub's largest size, 50,000 PRs rendered), a replay of weeks of daily
// runs, a soak (a crash after every write, a preview at every budget) or a
// wait of real time (an attempt that times out): on two cores a real wait
// holds one of go test's two workers. `go test ./...` and both CI passes
// run it; the quick loop, -short, stays within seconds.
func Long(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("a load test, a long replay, a soak or a real wait: runs without -short (go test ./..., CI)")
	}
}

// SlowEnabled reports whether the slow tests were asked for, for tests that
// pick their sizes instead of skipping.
func SlowEnabled() bool { return !testing.Short() && os.Getenv(slowVar) == "1" }

// ErrorLines are the ::error:: annotations of a workflow's log.
func ErrorLines(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "::error") {
			out = append(out, l)
		}
	}
	return out
}
