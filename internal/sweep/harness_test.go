package sweep_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

const token = "ghs_testtoken0123456789"

var (
	t0     = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	alice  = fakegithub.Person("alice")
	bob    = fakegithub.Person("bob")
	maint  = fakegithub.Person("maintainer")
	ci     = fakegithub.Bot("ci-helper[bot]")
	action = fakegithub.Bot("github-actions[bot]")
)

// world is a fake GitHub repository and the clock it shares with the client.
type world struct {
	t     *testing.T // nil in benchmarks: use tb()
	bench testing.TB // the benchmark, when t is nil
	fake  *fakegithub.Server
	srv   *httptest.Server
	clock *fakegithub.Clock
}

func newWorld(t *testing.T) *world {
	t.Helper()
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: token, Clock: clock})
	return serveWorld(t, fake)
}

// serveWorld serves fake over HTTP for tb; the world's clock is the fake's.
func serveWorld(tb testing.TB, fake *fakegithub.Server) *world {
	tb.Helper()
	srv := httptest.NewServer(fake)
	tb.Cleanup(srv.Close)
	w := &world{fake: fake, srv: srv, clock: fake.Clock()}
	if t, ok := tb.(*testing.T); ok {
		w.t = t
	} else {
		w.bench = tb
	}
	return w
}

// tb is the test or benchmark the world belongs to.
func (w *world) tb() testing.TB {
	if w.t != nil {
		return w.t
	}
	return w.bench
}

func daysAgo(d float64) time.Time { return t0.Add(-time.Duration(d * float64(24*time.Hour))) }

func (w *world) now() time.Time { return w.clock.Now() }

// pr adds an open PR by alice whose last activity was d days ago.
func (w *world) pr(d float64, mod ...func(*fakegithub.Issue)) int {
	is := fakegithub.Issue{Title: fmt.Sprintf("PR inactive %v days", d), User: alice,
		CreatedAt: daysAgo(d + 10), UpdatedAt: daysAgo(d)}
	for _, m := range mod {
		m(&is)
	}
	return w.fake.AddPR(is)
}

// markedPR adds a PR that stalepr marked d days ago: label and notice by the
// action, as a previous run would have left it.
func (w *world) markedPR(d float64, mod ...func(*fakegithub.Issue)) int {
	n := w.pr(d+90, mod...)
	at := daysAgo(d)
	w.fake.Label(n, action, at, "stale")
	w.fake.Comment(n, action, at.Add(time.Second), "This PR is stale.\n\n<!-- stalepr:stale marked="+at.Format(time.RFC3339)+
		" head="+w.fake.MustIssue(n).HeadSHA+" -->")
	return n
}

type nopLog struct{ lines, printed []string }

func (l *nopLog) PR(it sweep.Item) {
	l.lines = append(l.lines, fmt.Sprint(it.Number, it.Action))
}
func (l *nopLog) Printf(format string, args ...any) {
	l.printed = append(l.printed, fmt.Sprintf(format, args...))
}

// run parses inputs as the action would and sweeps once.
func (w *world) run(inputs map[string]string) sweep.Result {
	w.tb().Helper()
	return w.runLog(inputs, &nopLog{})
}

// runLog is run with the log kept.
func (w *world) runLog(inputs map[string]string, log sweep.Logger) sweep.Result {
	w.tb().Helper()
	cfg := w.config(inputs)
	// With dashboard-issue set, the run keeps a dashboard issue as main's does.
	return sweep.Run(context.Background(), w.client(cfg, w.clock, nil), cfg, w.now(), log,
		sweep.WithDashboard(func(sweep.Result) string { return "the queue" }))
}

// client is the ghapi client a run with cfg uses against the world, with
// clock (pacing and back-off waits) and base (nil: the fake served in
// process, fakegithub.Server.Transport);
// the one constructor every test of the package shares.
func (w *world) client(cfg config.Config, clock ghapi.Clock, base http.RoundTripper) *ghapi.Client {
	w.tb().Helper()
	if base == nil {
		base = w.fake.Transport()
	}
	client, err := ghapi.New(ghapi.Options{
		Token: string(cfg.Token), APIURL: w.srv.URL + "/api/v3", Owner: cfg.Owner, Repo: cfg.Repo,
		Clock: clock, Base: base,
		Limits: ghapi.Limits{DryRun: cfg.DebugOnly, MaxRequests: cfg.OperationsPerRun,
			Reserve: cfg.RateLimitReserve, WriteInterval: cfg.WriteInterval},
	})
	if err != nil {
		w.tb().Fatal(err)
	}
	return client
}

// config parses inputs as the action would, for the world's repository.
func (w *world) config(inputs map[string]string) config.Config {
	w.tb().Helper()
	src := config.Source{
		Input: func(name string) (string, bool) { v, ok := inputs[name]; return v, ok },
		Env: func(name string) string {
			return map[string]string{"GITHUB_TOKEN": token, "GITHUB_REPOSITORY": w.fake.FullName()}[name]
		},
	}
	cfg, err := config.Parse(src)
	if err != nil {
		w.tb().Fatalf("config: %v", err)
	}
	return cfg
}

func (w *world) labels(n int) []string { return w.fake.Labels(n) }

func (w *world) hasLabel(n int, label string) bool {
	for _, l := range w.fake.Labels(n) {
		if strings.EqualFold(l, label) {
			return true
		}
	}
	return false
}

// notices counts stalepr's comments of a kind on a PR.
func (w *world) notices(n int, kind string) int {
	c := 0
	for _, cm := range w.fake.Comments(n) {
		if strings.Contains(cm.Body, "<!-- stalepr:"+kind) {
			c++
		}
	}
	return c
}

func (w *world) state(n int) string { return w.fake.MustIssue(n).State }

func numbers(items []sweep.Item) []int {
	out := make([]int, len(items))
	for i, it := range items {
		out[i] = it.Number
	}
	return out
}

func has(items []sweep.Item, n int) bool {
	for _, it := range items {
		if it.Number == n {
			return true
		}
	}
	return false
}

func locked(is *fakegithub.Issue) { is.Locked = true }

// why is the reason n is listed with in items; "" when not listed.
func why(items []sweep.Item, n int) lifecycle.Reason {
	r, _ := reasonOf(items, n)
	return r
}

// writesTo lists the write routes sent for PR n.
func (w *world) writesTo(n int) []string {
	var out []string
	for _, r := range w.fake.WriteRequests() {
		if sfPROf(r) == n {
			out = append(out, r.Route)
		}
	}
	return out
}

// hookBase runs hook once, before the first request that match selects,
// then sends every request on.
type hookBase struct {
	once  sync.Once
	match func(*http.Request) bool
	hook  func()
}

func (h *hookBase) RoundTrip(r *http.Request) (*http.Response, error) {
	if h.match(r) {
		h.once.Do(h.hook)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// graphqlDoc is the query document of a GraphQL request, "" for any other.
func graphqlDoc(r *http.Request) string {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/graphql") || r.GetBody == nil {
		return ""
	}
	b, err := r.GetBody()
	if err != nil {
		return ""
	}
	defer b.Close()
	var body struct {
		Query string `json:"query"`
	}
	if json.NewDecoder(b).Decode(&body) != nil {
		return ""
	}
	return body.Query
}

// isWrite tells a request that changes something: any method but GET and
// HEAD, except a GraphQL query (a listing page, a history, the viewer),
// which only reads.
func isWrite(r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return false
	}
	doc := graphqlDoc(r)
	return doc == "" || strings.HasPrefix(strings.TrimSpace(doc), "mutation")
}

// isNowRead tells the fresh read of the PRs about to be written to
// (Reader.PullsNow): aliased pullRequest fields f0, f1, ...
func isNowRead(r *http.Request) bool { return strings.Contains(graphqlDoc(r), "f0: pullRequest(") }

// isOpenPage tells a request for a page of the open pull requests, which
// carries their histories.
func isOpenPage(r *http.Request) bool { return strings.Contains(graphqlDoc(r), "pullRequests(") }
