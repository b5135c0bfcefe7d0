package report

import (
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/sweep"
)

// TestOpenTotal: the first line says how many pull requests are open when
// the Result knows (a listing's total, such as GraphQL's totalCount), and
// that it was not counted when not, with the listing's reason.
func TestOpenTotal(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	cutoff := now.AddDate(0, 0, -90)
	for _, tc := range []struct {
		name string
		r    sweep.Result
		want string
	}{
		{"known, listing stopped at the cutoff", sweep.Result{Considered: 399, OpenTotal: 2000, OpenTotalKnown: true,
			ListedUntil: cutoff.AddDate(0, 0, 1), StaleCutoff: cutoff},
			"2000 pull requests open; looked at 399 of them (the longest inactive, up to the stale cutoff: nothing falls due on the others yet)."},
		{"unknown, the budget's work found", sweep.Result{Considered: 116, ListedUntil: cutoff.AddDate(0, -5, 0), StaleCutoff: cutoff},
			"Looked at 116 open pull requests (the longest inactive, as many as this run's requests could act on); how many are open in all was not counted."},
		{"unknown, stopped while listing", sweep.Result{Considered: 100, ListedUntil: cutoff.AddDate(0, -5, 0), StaleCutoff: cutoff,
			Unlisted: true, Stopped: api.RateLimit},
			"Looked at 100 open pull requests (the run stopped while listing: rate limit exceeded); how many are open in all was not counted."},
		{"all listed", sweep.Result{Considered: 26, OpenTotal: 26, OpenTotalKnown: true, ListedAll: true}, "Looked at all 26 open pull requests."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.Now, tc.r.RateRemaining = now, -1
			for name, s := range map[string]string{"markdown": Summary(tc.r, "o/r"), "text": Text(tc.r, "o/r")} {
				if !strings.Contains(s, tc.want) {
					t.Errorf("%s summary does not say %q:\n%s", name, tc.want, s)
				}
			}
		})
	}
}
