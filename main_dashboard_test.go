package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/fakegithub"
)

// With dashboard-issue set, the run keeps the queue issue after the sweep:
// created on the first run, not touched by the second when nothing changed,
// never counted or acted on as a pull request, and its requests are in the
// summary's API usage.
func TestRunDashboardIssue(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	e := w.env(t)
	e[inputVar("dashboard-issue")] = "Pull request queue"
	o := runWith(t, e)
	if o.code != 0 {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	var dash []fakegithub.Issue
	for _, is := range w.fake.Issues() {
		if is.HasLabel(dashboard.Label) {
			dash = append(dash, is)
		}
	}
	if len(dash) != 1 || dash[0].IsPR || dash[0].Title != "Pull request queue" {
		t.Fatalf("dashboard issues: %+v", dash)
	}
	body := dash[0].Body
	for _, want := range []string{"### Pull requests waiting", "#### Stale, closing soonest first", fmt.Sprintf("/pull/%d)", w.toMark), "| Last activity | Open PRs |"} {
		if !strings.Contains(body, want) {
			t.Errorf("dashboard body lacks %q:\n%s", want, body)
		}
	}
	if !strings.Contains(o.summaryFile, "POST /repos/{owner}/{repo}/issues |") {
		t.Errorf("the dashboard's create is not in the summary's API usage:\n%s", o.summaryFile)
	}
	if want := fmt.Sprintf("Dashboard issue: [#%d](", dash[0].Number); !strings.Contains(o.summaryFile, want) || !strings.Contains(o.summaryFile, ") created.") {
		t.Errorf("the job summary does not say the dashboard issue was created (%q):\n%s", want, o.summaryFile)
	}

	// The next run: the sweep ignores the issue (it is no PR), and the
	// dashboard is edited only if its content changed.
	w.fake.Reset()
	o = runWith(t, e)
	if o.code != 0 {
		t.Fatalf("second run: exit %d\n%s", o.code, o)
	}
	for _, r := range w.fake.WriteRequests() {
		if strings.Contains(r.Path, "/issues/"+strconv.Itoa(dash[0].Number)) && !strings.HasPrefix(r.Route, "PATCH /repos/{owner}/{repo}/issues/{issue_number}") {
			t.Errorf("the dashboard issue was written to by the sweep: %s %s", r.Route, r.Path)
		}
	}
	if strings.Contains(o.outputFile, "#"+strconv.Itoa(dash[0].Number)) || len(w.fake.Comments(dash[0].Number)) != 0 {
		t.Errorf("the dashboard issue was acted on as a PR")
	}
	if !strings.Contains(o.summaryFile, fmt.Sprintf("Dashboard issue: [#%d](", dash[0].Number)) {
		t.Errorf("the second run's summary does not say what happened to the dashboard issue:\n%s", o.summaryFile)
	}
}

// A dashboard update GitHub refuses is a warning that says so, in the
// summary too: the sweep's work stands, and the step does not fail for it.
func TestRunDashboardFailureIsAWarning(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.InjectFault(fakegithub.FaultRule{Method: "POST", Route: "/repos/{owner}/{repo}/issues", Times: -1,
		Fault: fakegithub.StatusFault(422, `{"message":"Validation Failed"}`)})
	e := w.env(t)
	e[inputVar("dashboard-issue")] = "Pull request queue"
	o := runWith(t, e)
	if o.code != 0 {
		t.Fatalf("exit %d, want 0: the sweep's work stands\n%s", o.code, o)
	}
	if !strings.Contains(o.stdout, "::warning::dashboard issue not updated (the next run tries again): ") || !strings.Contains(o.stdout, "Validation Failed") {
		t.Errorf("no warning for the dashboard's failure:\n%s", o.stdout)
	}
	if !strings.Contains(o.summaryFile, "Dashboard issue: failed (") {
		t.Errorf("the summary does not say the dashboard failed:\n%s", o.summaryFile)
	}
}

// debug-only prints the dashboard's body in the log and writes nothing.
func TestRunDashboardDryRun(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	e := w.env(t)
	e[inputVar("dashboard-issue")] = "Pull request queue"
	e[inputVar("debug-only")] = "true"
	o := runWith(t, e)
	if o.code != 0 || w.fake.Writes() != 0 {
		t.Fatalf("exit %d, %d writes\n%s", o.code, w.fake.Writes(), o)
	}
	if !strings.Contains(o.stdout, `would create "Pull request queue"`) || !strings.Contains(o.stdout, "<!-- stalepr:dashboard -->") {
		t.Errorf("the dry run's log lacks the dashboard body:\n%s", o.stdout)
	}
}

// A sweep capped by operations-per-run leaves the dashboard its requests.
func TestRunDashboardKeepsItsRequests(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	for i := 0; i < 30; i++ {
		w.fake.AddPR(fakegithub.Issue{Title: "old", User: alice, CreatedAt: daysAgo(400), UpdatedAt: daysAgo(300)})
	}
	e := w.env(t)
	e[inputVar("dashboard-issue")] = "Pull request queue"
	e[inputVar("operations-per-run")] = "20"
	o := runWith(t, e)
	if o.code != 0 {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	if !strings.Contains(o.summaryFile, "operations-per-run reached") {
		t.Fatalf("the sweep was not capped:\n%s", o.summaryFile)
	}
	created := false
	for _, r := range w.fake.WriteRequests() {
		created = created || r.Route == "POST /repos/{owner}/{repo}/issues"
	}
	if !created || w.fake.Count() > 20 {
		t.Errorf("dashboard created: %v; %d requests in all, budget 20\n%s", created, w.fake.Count(), o.stdout)
	}
}
