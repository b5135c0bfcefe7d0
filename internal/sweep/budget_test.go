package sweep_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// patWorld is a world whose token is a person's (a personal access token):
// its markers are not github-actions[bot]'s, so trusting one costs the
// identity read.
func patWorld(t *testing.T) (*world, fakegithub.User) {
	t.Helper()
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: token, Clock: clock, Login: "maint", LoginType: "User"})
	return serveWorld(t, fake), fake.Identity()
}

// TestSmallestBudgetActs: with operations-per-run at the minimum
// sweep.MinBudget names (the one cost model), a run marks, closes and
// un-stales through the HTTP path, for every input that adds requests to
// an action; one request less and the dearest of them does not happen,
// which CheckBudget refuses before any request.
func TestSmallestBudgetActs(t *testing.T) {
	t.Parallel()
	configs := map[string]map[string]string{
		"defaults":            {},
		"delete-branch":       {"delete-branch": "true"},
		"close-action draft":  {"close-action": "draft", "exempt-draft-pr": "true"},
		"templates that read": {"stale-pr-message": "Stale; {{reviewers}}", "close-pr-message": "Closed after {{days-inactive}} days"},
		"no comments":         {"stale-pr-message": "", "close-pr-message": ""},
		"never close":         {"days-before-close": "-1"},
		"never mark":          {"days-before-stale": "-1"},
		"dashboard-issue":     {"dashboard-issue": "Pull request queue"},
	}
	for name, inputs := range configs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w0, _ := patWorld(t)
			min := sweep.MinBudget(w0.config(inputs))
			with := func(budget int) map[string]string {
				in := map[string]string{"operations-per-run": fmt.Sprint(budget)}
				for k, v := range inputs {
					in[k] = v
				}
				return in
			}
			if err := sweep.CheckBudget(w0.config(with(min))); err != nil {
				t.Errorf("CheckBudget(%d) = %v, want nil", min, err)
			}
			err := sweep.CheckBudget(w0.config(with(min - 1)))
			if err == nil || !strings.Contains(err.Error(), `"operations-per-run"`) || !strings.Contains(err.Error(), fmt.Sprint(min)) {
				t.Errorf("CheckBudget(%d) = %v, want an error naming operations-per-run and %d", min-1, err, min)
			}

			if inputs["days-before-stale"] != "-1" {
				w, _ := patWorld(t)
				n := w.pr(100)
				if res := w.run(with(min)); !has(res.Marked(), n) {
					t.Errorf("budget %d: #%d not marked (%d requests, stopped %v)", min, n, res.Requests, res.Stopped)
				}
			}
			if inputs["days-before-close"] != "-1" {
				close := func(budget int) (sweep.Result, bool) {
					w, me := patWorld(t)
					n := w.pr(130)
					at := daysAgo(40)
					w.fake.Label(n, me, at, "stale")
					w.fake.Comment(n, me, at.Add(time.Second), "This PR is stale.\n\n<!-- stalepr:stale marked="+at.Format(time.RFC3339)+
						" head="+w.fake.MustIssue(n).HeadSHA+" -->")
					res := w.run(with(budget))
					return res, has(res.Closed(), n)
				}
				if res, closed := close(min); !closed {
					t.Errorf("budget %d: not closed (%d requests, stopped %v, failed %v)", min, res.Requests, res.Stopped, res.Failed())
				}
				if res, closed := close(min - 1); closed && inputs["days-before-stale"] != "-1" {
					t.Errorf("budget %d closed too: the minimum %d is not the least that closes (%d requests)", min-1, min, res.Requests)
				}
			}
			w, me := patWorld(t)
			n := w.pr(100)
			at := daysAgo(10)
			w.fake.Label(n, me, at, "stale")
			w.fake.Comment(n, me, at.Add(time.Second), "This PR is stale.\n\n<!-- stalepr:stale marked="+at.Format(time.RFC3339)+" -->")
			w.fake.Comment(n, alice, at.Add(time.Hour), "still on it")
			if res := w.run(with(min)); !has(res.Unstaled(), n) {
				t.Errorf("budget %d: #%d not un-staled (%d requests, stopped %v)", min, n, res.Requests, res.Stopped)
			}
		})
	}
}

// TestLeftIsTrueWhenTheListingStops: a budget that ends inside the listing
// of open PRs cannot count the PRs it did not list; the result says so
// rather than "0 left".
func TestLeftIsTrueWhenTheListingStops(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(100)
	cfg := w.config(map[string]string{"operations-per-run": "1"})
	res := sweep.Run(context.Background(), w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{})
	if res.Stopped == nil || has(res.Marked(), n) {
		t.Fatalf("stopped %v, marked %v: want a stop before #%d", res.Stopped, numbers(res.Marked()), n)
	}
	if res.Left == 0 && !res.Unlisted {
		t.Errorf("Left 0 and Unlisted false: #%d needs work and was never listed", n)
	}
	if got := report.LeftForNextRun(res); strings.Contains(got, "0 pull requests") {
		t.Errorf("the run's last line says %q: #%d is left", got, n)
	}
}

// TestMinBudgetAsDocumented: the minimums the input's description (and so
// action.yml and the README) quotes are the cost model's.
func TestMinBudgetAsDocumented(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	in, _ := config.Lookup(config.InputOperationsPerRun)
	for what, inputs := range map[string]map[string]string{
		"the defaults":  {},
		"delete-branch": {"delete-branch": "true"},
	} {
		if want := fmt.Sprintf("%d with %s", sweep.MinBudget(w.config(inputs)), what); !strings.Contains(in.Description, want) {
			t.Errorf("description of operations-per-run lacks %q: %s", want, in.Description)
		}
	}
}

// TestMarksPerRunAsDocumented: the number of PRs a default run marks on a
// backlog, which the description of operations-per-run (and so action.yml
// and the README's inputs table and rule 10) quotes, is what a run with the
// default budget marks on a backlog of 1,000 inactive PRs, rounded down to
// tens.
func TestMarksPerRunAsDocumented(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	w := newWorld(t)
	for i := 0; i < 1000; i++ {
		w.pr(float64(100 + i%300))
	}
	cfg := w.config(nil)
	res := sweep.Run(context.Background(), w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{})
	if res.Stopped == nil {
		t.Fatalf("the run marked all %d PRs: the backlog does not fill the budget", len(res.Marked()))
	}
	in, _ := config.Lookup(config.InputOperationsPerRun)
	if want := fmt.Sprintf("mark about %d pull requests", len(res.Marked())/10*10); !strings.Contains(in.Description, want) {
		t.Errorf("a default run marked %d of 1,000 inactive PRs; the description of operations-per-run lacks %q: %s",
			len(res.Marked()), want, in.Description)
	}
}
