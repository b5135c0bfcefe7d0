package dashboard_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
)

const token = "ghs_dashboardtoken0123456789"

var t0 = time.Date(2026, 12, 1, 3, 17, 0, 0, time.UTC)

type world struct {
	t    *testing.T
	fake *fakegithub.Server
	srv  *httptest.Server
}

func newWorld(t *testing.T) *world {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: token, Clock: fakegithub.NewClock(t0)})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return &world{t: t, fake: fake, srv: srv}
}

func (w *world) client(dry bool) *ghapi.Client {
	w.t.Helper()
	c, err := ghapi.New(ghapi.Options{Token: token, APIURL: w.srv.URL + "/api/v3", Owner: "octo", Repo: "repo",
		Clock: w.fake.Clock(), Limits: ghapi.Limits{DryRun: dry, WriteInterval: -1}})
	if err != nil {
		w.t.Fatal(err)
	}
	return c
}

type log struct {
	mu    sync.Mutex
	lines []string
}

func (l *log) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *log) String() string { return strings.Join(l.lines, "\n") }

func opts(now time.Time) dashboard.Options {
	return dashboard.Options{Title: "Pull request queue", Self: "github-actions[bot]", Now: now}
}

// update runs one update with gh (the world's client when nil).
func (w *world) update(gh dashboard.GitHub, o dashboard.Options, content string) (dashboard.Outcome, *log) {
	w.t.Helper()
	if gh == nil {
		gh = w.client(o.DryRun)
	}
	l := &log{}
	out, err := dashboard.Update(context.Background(), gh, o, content, l)
	if err != nil {
		w.t.Fatalf("Update: %v\n%s", err, l)
	}
	return out, l
}

// dashboards are the issues labelled as ours, by state.
func (w *world) dashboards() (open, closed []fakegithub.Issue) {
	for _, is := range w.fake.Issues() {
		if !is.HasLabel(dashboard.Label) {
			continue
		}
		if is.State == "open" {
			open = append(open, is)
		} else {
			closed = append(closed, is)
		}
	}
	return open, closed
}

func (w *world) one() fakegithub.Issue {
	w.t.Helper()
	open, _ := w.dashboards()
	if len(open) != 1 {
		w.t.Fatalf("%d open dashboard issues, want exactly 1: %+v", len(open), open)
	}
	return open[0]
}

func writes(reqs []fakegithub.RequestInfo) []string {
	var out []string
	for _, r := range reqs {
		if r.Write {
			out = append(out, r.Route)
		}
	}
	return out
}

// Created once, with its label and markers in the one request; found again
// with one request; not edited when nothing changed.
func TestCreatedOnceThenFoundWithOneRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	out, _ := w.update(nil, opts(t0), "3 stale")
	is := w.one()
	if out.Action != "created" || out.Number != is.Number {
		t.Fatalf("outcome %+v, want created #%d", out, is.Number)
	}
	if is.Title != "Pull request queue" || is.User.Login != "github-actions[bot]" ||
		!strings.Contains(is.Body, "<!-- stalepr:dashboard -->\n3 stale\n") || !strings.Contains(is.Body, "<!-- /stalepr:dashboard -->") {
		t.Errorf("created issue: %+v", is)
	}
	if got := writes(w.fake.Requests()); len(got) != 1 || got[0] != "POST /repos/{owner}/{repo}/issues" {
		t.Errorf("writes %v, want the one create", got)
	}
	w.fake.Reset()
	out, _ = w.update(nil, opts(t0.Add(time.Hour)), "3 stale")
	if out.Action != "unchanged" || w.fake.Count() != 1 {
		t.Errorf("second run: %+v with %d requests (%v); want unchanged with 1", out, w.fake.Count(), w.fake.CountBy())
	}
	if r := w.fake.Requests()[0]; !strings.Contains(r.Path, "labels="+dashboard.Label) || !strings.Contains(r.Path, "state=all") {
		t.Errorf("found with %s, want the label filter and every state", r.Path)
	}
	w.one()
}

// Edited in place (an edit notifies nobody) only when the content changed;
// the time of the run alone is no change.
func TestEditedOnlyWhenContentChanged(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.update(nil, opts(t0), "3 stale")
	n := w.one().Number
	w.fake.Reset()
	out, _ := w.update(nil, opts(t0.Add(24*time.Hour)), "4 stale")
	if out.Action != "edited" {
		t.Fatalf("outcome %+v, want edited", out)
	}
	if got := writes(w.fake.Requests()); len(got) != 1 || got[0] != "PATCH /repos/{owner}/{repo}/issues/{issue_number}" {
		t.Errorf("writes %v, want one PATCH of the issue", got)
	}
	if len(w.fake.Comments(n)) != 0 {
		t.Errorf("a comment was posted: it would notify every subscriber")
	}
	body := w.one().Body
	if !strings.Contains(body, "\n4 stale\n") || !strings.Contains(body, "2026-12-02 03:17 UTC") || strings.Contains(body, "3 stale") {
		t.Errorf("body after edit:\n%s", body)
	}
	w.fake.Reset()
	w.update(nil, opts(t0.Add(48*time.Hour)), "4 stale")
	if got := writes(w.fake.Requests()); len(got) != 0 {
		t.Errorf("unchanged content, later run: writes %v", got)
	}
}

// A person's text outside the marked block is kept to the byte; without
// the markers the issue is left alone, and no second one is created.
func TestPersonTextOutsideTheBlockIsKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const three = "3 stale\n\n| PR | Closes |\n| --- | --- |\n| #1 | soon |"
	w.update(nil, opts(t0), three)
	is := w.one()
	above, below := "Triage notes (by a maintainer):\n\n- ping @alice on Fridays\n\n", "\n\n<!-- mine -->\nSee also #12.\n"
	gh := w.client(false)
	if err := gh.EditIssue(context.Background(), is.Number, above+strings.TrimSpace(is.Body)+below, false); err != nil {
		t.Fatal(err)
	}
	// A person's edit in the web editor also turns our block's line ends
	// into CRLF: no change of content, so no write.
	crlf := strings.ReplaceAll(above+strings.TrimSpace(is.Body)+below, "\n", "\r\n")
	if err := gh.EditIssue(context.Background(), is.Number, crlf, false); err != nil {
		t.Fatal(err)
	}
	w.fake.Reset()
	w.update(nil, opts(t0.Add(time.Hour)), three)
	if got := writes(w.fake.Requests()); len(got) != 0 {
		t.Errorf("CRLF line ends alone caused writes %v", got)
	}
	if err := gh.EditIssue(context.Background(), is.Number, above+strings.TrimSpace(is.Body)+below, false); err != nil {
		t.Fatal(err)
	}
	w.update(nil, opts(t0.Add(time.Hour)), "5 stale")
	body := w.one().Body
	if !strings.HasPrefix(body, above+"<!-- stalepr:dashboard -->\n5 stale\n") || !strings.HasSuffix(body, "<!-- /stalepr:dashboard -->"+below) {
		t.Errorf("person's text not kept around the new block:\n%q", body)
	}

	// The markers removed: the issue is the person's now.
	if err := gh.EditIssue(context.Background(), is.Number, "All mine now.", false); err != nil {
		t.Fatal(err)
	}
	w.fake.Reset()
	out, l := w.update(nil, opts(t0.Add(2*time.Hour)), "6 stale")
	if out.Action != "left alone" || len(writes(w.fake.Requests())) != 0 || w.one().Body != "All mine now." {
		t.Errorf("issue without markers: %+v, writes %v, body %q", out, writes(w.fake.Requests()), w.one().Body)
	}
	if !strings.Contains(l.String(), "lost its hidden markers") {
		t.Errorf("log does not say why:\n%s", l)
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
func TestNoDuplicateAfterACrash(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if _, err := dashboard.Update(context.Background(), crashAfterCreate{w.client(false)}, opts(t0), "3 stale", &log{}); err == nil {
		t.Fatal("the crashed run reported no error")
	}
	n := w.one().Number
	out, _ := w.update(nil, opts(t0.Add(time.Hour)), "4 stale")
	if out.Number != n || out.Action != "edited" {
		t.Errorf("next run: %+v, want #%d edited", out, n)
	}
	w.one()

	// The create's answer lost (the write took effect, then 502): the run
	// lists again rather than trust the error, and finds it.
	w2 := newWorld(t)
	w2.fake.InjectFault(fakegithub.FaultRule{Method: "POST", Route: "/repos/{owner}/{repo}/issues", Fault: fakegithub.FailAfterWrite()})
	out, _ = w2.update(nil, opts(t0), "3 stale")
	if is := w2.one(); out.Number != is.Number || out.Action != "created" {
		t.Errorf("lost answer: %+v, want #%d created", out, is.Number)
	}
	w2.update(nil, opts(t0.Add(time.Hour)), "3 stale")
	w2.one()
}

// gated lets a test interleave two runs: before runs before each call.
type gated struct {
	*ghapi.Client
	beforeList, beforeCreate func(n int)
	lists, creates           int
}

func (g *gated) LabelledIssues(ctx context.Context, label string) ([]api.Issue, error) {
	g.lists++
	if g.beforeList != nil {
		g.beforeList(g.lists)
	}
	return g.Client.LabelledIssues(ctx, label)
}

func (g *gated) CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error) {
	g.creates++
	if g.beforeCreate != nil {
		g.beforeCreate(g.creates)
	}
	return g.Client.CreateIssue(ctx, title, body, labels)
}

// Two runs at once both find no issue and both create one: each lists again
// after creating, and both keep the oldest and close the other. One stays.
func TestNoDuplicateWithTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	aListed, bListed, aCreated, bCreated := make(chan bool), make(chan bool), make(chan bool), make(chan bool)
	a := &gated{Client: w.client(false)}
	b := &gated{Client: w.client(false)}
	// A lists, B lists (both find nothing), A creates, B creates, then both
	// list again.
	a.beforeCreate = func(int) { <-bListed }
	a.beforeList = func(n int) {
		if n == 2 {
			aCreated <- true
			<-bCreated
		}
	}
	b.beforeList = func(n int) {
		if n == 1 {
			<-aListed
		}
	}
	b.beforeCreate = func(int) { bListed <- true; <-aCreated }
	var wg sync.WaitGroup
	var outB dashboard.Outcome
	var errB error
	wg.Add(1)
	go func() {
		defer wg.Done()
		outB, errB = dashboard.Update(context.Background(), &afterCreate{b, func() { close(bCreated) }}, opts(t0), "3 stale", &log{})
	}()
	outA, errA := dashboard.Update(context.Background(), &firstList{a, func() { close(aListed) }}, opts(t0), "3 stale", &log{})
	wg.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("errors: %v, %v", errA, errB)
	}
	open, closed := w.dashboards()
	if len(open) != 1 || len(closed) != 1 {
		t.Fatalf("%d open and %d closed dashboard issues, want 1 and 1 (the duplicate closed)", len(open), len(closed))
	}
	if open[0].Number > closed[0].Number {
		t.Errorf("kept #%d, closed #%d: the oldest must be kept", open[0].Number, closed[0].Number)
	}
	if outA.Number != open[0].Number || outB.Number != open[0].Number {
		t.Errorf("outcomes %+v and %+v, want both on #%d", outA, outB, open[0].Number)
	}
	if !strings.Contains(closed[0].Body, fmt.Sprintf("#%d is the one kept up to date", open[0].Number)) || closed[0].StateReason != "not_planned" {
		t.Errorf("duplicate closed as %q with body %q", closed[0].StateReason, closed[0].Body)
	}
	// A later run writes nothing and finds the one.
	w.fake.Reset()
	out, _ := w.update(nil, opts(t0.Add(time.Hour)), "3 stale")
	if out.Number != open[0].Number || len(writes(w.fake.Requests())) != 0 {
		t.Errorf("later run: %+v, writes %v", out, writes(w.fake.Requests()))
	}
}

// firstList signals once the wrapped run's first listing has returned.
type firstList struct {
	*gated
	done func()
}

func (f *firstList) LabelledIssues(ctx context.Context, label string) ([]api.Issue, error) {
	list, err := f.gated.LabelledIssues(ctx, label)
	if f.gated.lists == 1 {
		f.done()
	}
	return list, err
}

// afterCreate signals once the wrapped run's create has returned.
type afterCreate struct {
	*gated
	done func()
}

func (f *afterCreate) CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error) {
	is, err := f.gated.CreateIssue(ctx, title, body, labels)
	f.done()
	return is, err
}

// A dry run writes nothing and prints the body it would write.
func TestDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	out, l := w.update(nil, dashboard.Options{Title: "Queue", DryRun: true, Self: "github-actions[bot]", Now: t0}, "3 stale")
	if out.Action != "would create" || w.fake.Writes() != 0 {
		t.Errorf("dry run: %+v, %d writes", out, w.fake.Writes())
	}
	if !strings.Contains(l.String(), "would create \"Queue\"") || !strings.Contains(l.String(), "<!-- stalepr:dashboard -->\n3 stale") {
		t.Errorf("dry run's log lacks the body:\n%s", l)
	}
	w.update(nil, opts(t0), "3 stale")
	w.fake.Reset()
	out, l = w.update(nil, dashboard.Options{Title: "Queue", DryRun: true, Self: "github-actions[bot]", Now: t0}, "4 stale")
	if out.Action != "would edit" || w.fake.Writes() != 0 || !strings.Contains(l.String(), "4 stale") {
		t.Errorf("dry run on an existing issue: %+v, %d writes, log:\n%s", out, w.fake.Writes(), l)
	}
}

// A person's issue with our label and markers is not ours: never edited,
// and stalepr keeps its own.
func TestAnotherAuthorsIssueIsNotOurs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fake := w.fake.AddIssue(fakegithub.Issue{Title: "Queue", User: fakegithub.Person("mallory"), Labels: []string{dashboard.Label},
		Body: "<!-- stalepr:dashboard -->\nx\n<!-- /stalepr:dashboard -->", CreatedAt: t0.Add(-time.Hour)})
	out, _ := w.update(nil, opts(t0), "3 stale")
	if out.Number == fake || w.fake.MustIssue(fake).Body != "<!-- stalepr:dashboard -->\nx\n<!-- /stalepr:dashboard -->" {
		t.Errorf("the person's issue #%d was taken for ours: %+v", fake, out)
	}
	open, _ := w.dashboards()
	if len(open) != 2 {
		t.Errorf("%d labelled issues, want the person's and ours", len(open))
	}
}

// A closed dashboard issue (a person closed it) is left closed, and no new
// one is created.
func TestClosedDashboardIsLeftAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.update(nil, opts(t0), "3 stale")
	n := w.one().Number
	w.fake.Close(n, fakegithub.Person("maintainer"), t0.Add(time.Minute), "completed")
	w.fake.Reset()
	out, _ := w.update(nil, opts(t0.Add(time.Hour)), "4 stale")
	if out.Action != "left alone" || w.fake.Writes() != 0 {
		t.Errorf("closed issue: %+v, %d writes", out, w.fake.Writes())
	}
}

// TestPersonTextQuotingTheMarkersIsKept: a person's text that quotes the
// markers (in backticks, or both in one sentence) is theirs, kept to the
// byte; the real block below is the one brought up to date.
func TestPersonTextQuotingTheMarkersIsKept(t *testing.T) {
	t.Parallel()
	for name, above := range map[string]string{
		"start marker": "Do not edit below `<!-- stalepr:dashboard -->`: stalepr rewrites it.\n\n",
		"both markers": "stalepr writes between `<!-- stalepr:dashboard -->` and `<!-- /stalepr:dashboard -->`; edit above.\n\n",
		"end first":    "It ends at <!-- /stalepr:dashboard --> and starts at <!-- stalepr:dashboard -->, see below.\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.update(nil, opts(t0), "3 stale")
			is := w.one()
			gh := w.client(false)
			if err := gh.EditIssue(context.Background(), is.Number, above+is.Body, false); err != nil {
				t.Fatal(err)
			}
			w.update(nil, opts(t0.Add(time.Hour)), "5 stale")
			body := w.one().Body
			if !strings.HasPrefix(body, above+"<!-- stalepr:dashboard -->\n5 stale\n") {
				t.Errorf("the person's text or the block is not as it should be:\n%q", body)
			}
			if strings.Contains(body, "3 stale") {
				t.Errorf("the real block was left stale:\n%q", body)
			}
		})
	}
}
