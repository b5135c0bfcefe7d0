package sweep_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The dashboard issue, kept after the sweep through the sweep's executor:
// these tests run whole sweeps of a repository with no PR, so every write
// is the dashboard's.

const queueTitle = "Pull request queue"

// keep runs one sweep that keeps the dashboard issue with content, the
// client wrapped by wrap when set, and returns what it did to the issue.
func (w *world) keep(inputs map[string]string, content string, wrap func(*ghapi.Client) sweep.GitHub) ([]sweep.Item, *nopLog) {
	w.t.Helper()
	in := map[string]string{"dashboard-issue": queueTitle}
	for k, v := range inputs {
		in[k] = v
	}
	cfg := w.config(in)
	var gh sweep.GitHub = w.client(cfg, w.clock, nil)
	if wrap != nil {
		gh = wrap(gh.(*ghapi.Client))
	}
	l := &nopLog{}
	res := sweep.Run(context.Background(), gh, cfg, w.now(), l, sweep.WithDashboard(func(sweep.Result) string { return content }))
	return res.Dashboard, l
}

// outcomes are items' outcomes and numbers, as "edit-dashboard #3".
func outcomes(items []sweep.Item) string {
	var out []string
	for _, it := range items {
		s := fmt.Sprintf("%s #%d", it.Outcome, it.Number)
		if it.Err != "" {
			s += ": " + it.Err
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// dashboards are the issues labelled as ours, by state.
func (w *world) dashboards() (open, closed []fakegithub.Issue) {
	for _, is := range w.fake.Issues() {
		switch {
		case !is.HasLabel(dashboard.Label):
		case is.State == "open":
			open = append(open, is)
		default:
			closed = append(closed, is)
		}
	}
	return open, closed
}

func (w *world) oneDashboard() fakegithub.Issue {
	w.t.Helper()
	open, _ := w.dashboards()
	if len(open) != 1 {
		w.t.Fatalf("%d open dashboard issues, want exactly 1: %+v", len(open), open)
	}
	return open[0]
}

// dashboardRequests are the requests that were the dashboard's: its
// listing by label, and every write (the repository has no PR).
func (w *world) dashboardRequests() (reads, writes []string) {
	for _, r := range w.fake.Requests() {
		switch {
		case r.Write && r.Route != "POST /graphql":
			writes = append(writes, r.Route)
		case strings.Contains(r.Path, "labels="+dashboard.Label):
			reads = append(reads, r.Path)
		}
	}
	return reads, writes
}

// Created once, with its label and markers in the one request; found again
// with one request; edited in place (no comment: an edit notifies nobody)
// only when the content changed: the time of the run alone is no change.
func TestDashboardCreatedOnceThenEditedOnChange(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	items, _ := w.keep(nil, "3 stale", nil)
	is := w.oneDashboard()
	if got := outcomes(items); got != fmt.Sprintf("create-dashboard #%d", is.Number) {
		t.Fatalf("first run: %s", got)
	}
	if is.Title != queueTitle || is.User.Login != "github-actions[bot]" || !strings.Contains(is.Body, "<!-- stalepr:dashboard -->\n3 stale\n") {
		t.Errorf("created issue: %+v", is)
	}
	if _, writes := w.dashboardRequests(); len(writes) != 1 || writes[0] != "POST /repos/{owner}/{repo}/issues" {
		t.Errorf("writes %v, want the one create", writes)
	}

	for _, run := range []struct {
		after   time.Duration
		content string
		want    string
		writes  []string
	}{
		{time.Hour, "3 stale", "dashboard-up-to-date", nil},
		{24 * time.Hour, "4 stale", "edit-dashboard", []string{"PATCH /repos/{owner}/{repo}/issues/{issue_number}"}},
		{48 * time.Hour, "4 stale", "dashboard-up-to-date", nil},
	} {
		w.fake.Reset()
		w.clock.Set(t0.Add(run.after))
		items, _ := w.keep(nil, run.content, nil)
		reads, writes := w.dashboardRequests()
		if got := outcomes(items); got != fmt.Sprintf("%s #%d", run.want, is.Number) || len(reads) != 1 || fmt.Sprint(writes) != fmt.Sprint(run.writes) {
			t.Errorf("run at +%s: %s, reads %v, writes %v; want %s with one read and writes %v", run.after, got, reads, writes, run.want, run.writes)
		}
		if len(reads) == 1 && !strings.Contains(reads[0], "state=all") {
			t.Errorf("found with %s, want every state", reads[0])
		}
	}
	if body := w.oneDashboard().Body; !strings.Contains(body, "\n4 stale\n") || !strings.Contains(body, "2026-11-30 12:00 UTC") {
		t.Errorf("body after the edit:\n%s", body)
	}
	if len(w.fake.Comments(is.Number)) != 0 {
		t.Errorf("a comment was posted: it would notify every subscriber")
	}
}

// crashAfterCreate is a run that dies right after its create request
// reached GitHub.
type crashAfterCreate struct{ *ghapi.Client }

func (c crashAfterCreate) CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error) {
	if _, err := c.Client.CreateIssue(ctx, title, body, labels); err != nil {
		return api.Issue{}, err
	}
	return api.Issue{}, context.Canceled // the process ends here
}

// No duplicate after a crash between the writes: the issue carries its
// label and markers from its one create request, so the next run finds it;
// nor after a create whose answer was lost.
func TestDashboardNoDuplicateAfterACrash(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	items, _ := w.keep(nil, "3 stale", func(c *ghapi.Client) sweep.GitHub { return crashAfterCreate{c} })
	n := w.oneDashboard().Number
	if len(items) != 1 || items[0].Outcome != sweep.Failed {
		t.Errorf("the crashed run: %s, want the create failed", outcomes(items))
	}
	w.clock.Advance(time.Hour)
	if items, _ := w.keep(nil, "4 stale", nil); outcomes(items) != fmt.Sprintf("edit-dashboard #%d", n) {
		t.Errorf("next run: %s, want #%d edited", outcomes(items), n)
	}
	w.oneDashboard()

	// The create's answer lost (the write took effect, then 502): the run
	// lists again rather than trust the error, and finds it.
	w2 := newWorld(t)
	w2.fake.InjectFault(fakegithub.FaultRule{Method: "POST", Route: "/repos/{owner}/{repo}/issues", Fault: fakegithub.FailAfterWrite()})
	items, _ = w2.keep(nil, "3 stale", nil)
	if is := w2.oneDashboard(); outcomes(items) != fmt.Sprintf("create-dashboard #%d", is.Number) {
		t.Errorf("lost answer: %s, want #%d created", outcomes(items), is.Number)
	}
	w2.keep(nil, "3 stale", nil)
	w2.oneDashboard()
}

// gated lets a test interleave two runs: before runs before each call.
type gated struct {
	*ghapi.Client
	beforeList, beforeCreate func(n int)
	afterList, afterCreate   func(n int)
	lists, creates           int
}

func (g *gated) LabelledIssues(ctx context.Context, label string) ([]api.Issue, error) {
	g.lists++
	if g.beforeList != nil {
		g.beforeList(g.lists)
	}
	list, err := g.Client.LabelledIssues(ctx, label)
	if g.afterList != nil {
		g.afterList(g.lists)
	}
	return list, err
}

func (g *gated) CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error) {
	g.creates++
	if g.beforeCreate != nil {
		g.beforeCreate(g.creates)
	}
	is, err := g.Client.CreateIssue(ctx, title, body, labels)
	if g.afterCreate != nil {
		g.afterCreate(g.creates)
	}
	return is, err
}

// Two runs at once both find no issue and both create one: each lists again
// after creating, and both keep the oldest and close the other. One stays.
func TestDashboardNoDuplicateWithTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	aListed, bListed, aCreated, bCreated := make(chan bool), make(chan bool), make(chan bool), make(chan bool)
	// A lists, B lists (both find nothing), A creates, B creates, then both
	// list again.
	a := &gated{
		afterList:    func(n int) { once(n == 1, aListed) },
		beforeCreate: func(int) { <-bListed },
		beforeList: func(n int) {
			if n == 2 {
				aCreated <- true
				<-bCreated
			}
		},
	}
	b := &gated{
		beforeList: func(n int) {
			if n == 1 {
				<-aListed
			}
		},
		beforeCreate: func(int) { bListed <- true; <-aCreated },
		afterCreate:  func(int) { close(bCreated) },
	}
	var itemsB []sweep.Item
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		itemsB, _ = w.keep(nil, "3 stale", func(c *ghapi.Client) sweep.GitHub { b.Client = c; return b })
	}()
	itemsA, _ := w.keep(nil, "3 stale", func(c *ghapi.Client) sweep.GitHub { a.Client = c; return a })
	wg.Wait()
	open, closed := w.dashboards()
	if len(open) != 1 || len(closed) != 1 {
		t.Fatalf("%d open and %d closed dashboard issues, want 1 and 1 (the duplicate closed)", len(open), len(closed))
	}
	kept, dup := open[0].Number, closed[0].Number
	if kept > dup {
		t.Errorf("kept #%d, closed #%d: the oldest must be kept", kept, dup)
	}
	// Each run reports its creation; whichever lists again first closes
	// the copy (both may), and neither touches the one kept.
	a0, b0 := fmt.Sprintf("create-dashboard #%d", kept), fmt.Sprintf("create-dashboard #%d, dashboard-up-to-date #%d", dup, kept)
	closing := fmt.Sprintf(", close-dashboard-copy #%d", dup)
	gotA, gotB := outcomes(itemsA), outcomes(itemsB)
	if gotA != a0 && gotA != a0+closing || gotB != b0 && gotB != b0+closing || !strings.Contains(gotA+gotB, closing) {
		t.Errorf("runs A: %s; B: %s; want %s and %s, one or both then%s", gotA, gotB, a0, b0, closing)
	}
	if !strings.Contains(closed[0].Body, fmt.Sprintf("#%d is the one kept up to date", kept)) || closed[0].StateReason != "not_planned" {
		t.Errorf("duplicate closed as %q with body %q", closed[0].StateReason, closed[0].Body)
	}
	// A later run writes nothing and finds the one.
	w.fake.Reset()
	items, _ := w.keep(nil, "3 stale", nil)
	if _, writes := w.dashboardRequests(); outcomes(items) != fmt.Sprintf("dashboard-up-to-date #%d", kept) || len(writes) != 0 {
		t.Errorf("later run: %s, writes %v", outcomes(items), writes)
	}
}

// once closes ch the first time cond holds.
func once(cond bool, ch chan bool) {
	if cond {
		close(ch)
	}
}

// A dry run writes nothing, through the same executor as every write, and
// shows the body a real run would write.
func TestDashboardDryRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dry := map[string]string{"debug-only": "true"}
	items, l := w.keep(dry, "3 stale", nil)
	if outcomes(items) != "create-dashboard #0" || w.fake.Writes() != 0 {
		t.Errorf("dry run: %s, %d writes", outcomes(items), w.fake.Writes())
	}
	if log := strings.Join(l.printed, "\n"); !strings.Contains(log, `would create "Pull request queue"`) || !strings.Contains(log, "<!-- stalepr:dashboard -->\n3 stale") {
		t.Errorf("the dry run's log lacks the body:\n%s", log)
	}
	w.keep(nil, "3 stale", nil)
	n := w.oneDashboard().Number
	w.fake.Reset()
	items, l = w.keep(dry, "4 stale", nil)
	if outcomes(items) != fmt.Sprintf("edit-dashboard #%d", n) || w.fake.Writes() != 0 || !strings.Contains(strings.Join(l.printed, "\n"), "4 stale") {
		t.Errorf("dry run on an existing issue: %s, %d writes, log:\n%s", outcomes(items), w.fake.Writes(), l.printed)
	}
}

// A person's issue with our label and markers is not ours: never edited,
// and stalepr keeps its own. A closed one of ours is left closed, and no
// new one is created. One without markers is left as it is.
func TestDashboardLeavesWhatIsNotItsToChange(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	marked := "<!-- stalepr:dashboard -->\nx\n<!-- /stalepr:dashboard -->"
	theirs := w.fake.AddIssue(fakegithub.Issue{Title: "Queue", User: fakegithub.Person("mallory"), Labels: []string{dashboard.Label},
		Body: marked, CreatedAt: t0.Add(-time.Hour)})
	items, _ := w.keep(nil, "3 stale", nil)
	if len(items) != 1 || items[0].Number == theirs || w.fake.MustIssue(theirs).Body != marked {
		t.Errorf("the person's issue #%d was taken for ours: %s", theirs, outcomes(items))
	}
	ours := items[0].Number

	w.fake.Close(ours, maint, w.now(), "completed")
	w.fake.Reset()
	items, _ = w.keep(nil, "4 stale", nil)
	if outcomes(items) != fmt.Sprintf("dashboard-left-alone #%d", ours) || w.fake.Writes() != 0 || items[0].Reason != dashboard.ReasonClosed {
		t.Errorf("closed issue: %s (%s), %d writes", outcomes(items), items[0].Reason, w.fake.Writes())
	}
}

// A run that did not see the whole queue (its listing failed) leaves the
// dashboard as it is, with no request of the dashboard's.
func TestDashboardNotUpdatedFromAFailedListing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Fault: &fakegithub.Fault{Status: 500}, Times: -1})
	items, _ := w.keep(map[string]string{"stale-clock": "author-turn"}, "3 stale", nil)
	if reads, writes := w.dashboardRequests(); len(items) != 1 || items[0].Reason != sweep.ReasonDashboardUnseen || len(reads)+len(writes) != 0 {
		t.Errorf("after a failed listing: %s (%s), requests %v %v", outcomes(items), items[0].Reason, reads, writes)
	}
}

// A sweep its budget stops still leaves the dashboard what its first update
// needs (the listing, the creation, the listing again), and a dry run
// reports the creation the real run makes, not a failure.
func TestDashboardCreatedByACappedRun(t *testing.T) {
	t.Parallel()
	for _, budget := range []int{11, 12, 13} { // a mark is 2 requests: both parities
		for _, dry := range []bool{true, false} {
			if testing.Short() && budget == 13 || testing.Short() && dry != (budget == 11) {
				continue // -short: a dry run at 11, a real one at 12 (2 of the 6); CI runs all
			}
			w := newWorld(t)
			for range 30 {
				w.pr(300)
			}
			in := map[string]string{"operations-per-run": fmt.Sprint(budget), "debug-only": fmt.Sprint(dry)}
			items, _ := w.keep(in, "3 stale", nil)
			want := "create-dashboard #0"
			if !dry {
				want = fmt.Sprintf("create-dashboard #%d", w.oneDashboard().Number)
			}
			if got := outcomes(items); got != want || w.fake.Count() > budget {
				t.Errorf("budget %d, dry run %v: %s after %d requests; want %s", budget, dry, got, w.fake.Count(), want)
			}
		}
	}
}
