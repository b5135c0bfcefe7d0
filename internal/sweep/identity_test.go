package sweep_test

// Who stalepr is. Its markers count only in
// comments by the identity the token writes as, which GitHub names for every
// kind of token; an identity that cannot be learnt leaves the PRs marked
// under it alone and fails the step. Every test runs through the HTTP path
// against the fake GitHub.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

var (
	ourApp   = fakegithub.Bot("stalepr-app[bot]")
	ourRobot = fakegithub.Person("release-robot") // a machine user's personal token
)

// newWorldAs is newWorld with a token that acts as who: github-actions[bot]
// is the workflow's GITHUB_TOKEN, another bot a GitHub App's installation
// token, a person a personal access token.
func newWorldAs(t *testing.T, who fakegithub.User) *world {
	t.Helper()
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: token, Clock: clock,
		Login: who.Login, LoginType: who.Type})
	return serveWorld(t, fake)
}

// markedBy adds a PR that who marked d days ago, label and notice, as an
// earlier run with that token would have left it.
func (w *world) markedBy(who fakegithub.User, d float64) int {
	n := w.pr(d + 90)
	at := daysAgo(d)
	w.fake.Label(n, who, at, "stale")
	w.fake.Comment(n, who, at.Add(time.Second), "This PR is stale.\n\n<!-- stalepr:stale marked="+at.Format(time.RFC3339)+
		" head="+w.fake.MustIssue(n).HeadSHA+" -->")
	return n
}

// closingBy counts the comments by who on a PR that carry the close marker.
func (w *world) closingBy(n int, who fakegithub.User) int {
	c := 0
	for _, cm := range w.fake.Comments(n) {
		if strings.EqualFold(cm.User.Login, who.Login) && strings.Contains(cm.Body, "<!-- stalepr:close") {
			c++
		}
	}
	return c
}

// isIdentityRequest tells the requests that ask GitHub who the token acts
// as, whichever way the client asks: REST's GET /user, or a GraphQL query
// of the viewer alone. A listing page names the viewer beside its pull
// requests: that is not a request of its own.
func isIdentityRequest(r fakegithub.RequestInfo) bool {
	if r.Route == "GET /user" {
		return true
	}
	if r.Route != "POST /graphql" {
		return false
	}
	var body struct {
		Query string `json:"query"`
	}
	if json.Unmarshal([]byte(r.Body), &body) != nil {
		return false
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: body.Query})
	if err != nil || len(doc.Operations) == 0 {
		return false
	}
	for _, op := range doc.Operations {
		if op.Operation != ast.Query {
			return false
		}
		for _, sel := range op.SelectionSet {
			if f, ok := sel.(*ast.Field); !ok || f.Name != "viewer" && f.Name != "__typename" {
				return false
			}
		}
	}
	return true
}

func (w *world) identityRequests() int {
	n := 0
	for _, r := range w.fake.Requests() {
		if isIdentityRequest(r) {
			n++
		}
	}
	return n
}

// Item 3: under each kind of token only that token's own login is stalepr.
// Another bot quoting a closing comment (a digest bot, a mirror) does not
// make a PR look closed by us: it is closed with our own closing comment.
// Under GITHUB_TOKEN, an app's bot is not us; under an app's token,
// github-actions[bot] is not us; under a personal token, no bot is.
func TestIdentityOnlyTheTokensOwnLoginIsUs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind       string
		us         fakegithub.User
		impostors  []fakegithub.User
		identities int // identity requests the run may send
	}{
		// The listing pages name the viewer: no request of its own.
		{"GITHUB_TOKEN", action, []fakegithub.User{ci, ourApp}, 0},
		{"GitHub App installation token", ourApp, []fakegithub.User{action, ci}, 0},
		{"personal access token", ourRobot, []fakegithub.User{action, ci, ourApp}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			w := newWorldAs(t, tc.us)
			due := w.markedBy(tc.us, 40)     // our mark, due for closing
			waiting := w.markedBy(tc.us, 10) // our mark, not due yet
			quoted := map[string]int{}
			for _, imp := range tc.impostors {
				n := w.markedBy(tc.us, 40)
				w.fake.Comment(n, imp, daysAgo(39), "Digest of the thread:\n> Closing this pull request.\n> <!-- stalepr:close -->")
				quoted[imp.Login] = n
			}
			res := w.run(nil)
			if !res.OK() {
				t.Fatalf("run failed: %v", res.Failed())
			}
			if w.state(due) != "closed" || w.closingBy(due, tc.us) != 1 {
				t.Errorf("our own mark of 40 days ago: state %s, %d closing comments of ours; want closed with one", w.state(due), w.closingBy(due, tc.us))
			}
			if w.state(waiting) != "open" || !w.hasLabel(waiting, "stale") || w.notices(waiting, "stale") != 1 {
				t.Errorf("our own mark of 10 days ago: state %s, labels %v, %d notices; want open, stale, our one notice recognised",
					w.state(waiting), w.labels(waiting), w.notices(waiting, "stale"))
			}
			for login, n := range quoted {
				if w.state(n) != "closed" || w.closingBy(n, tc.us) != 1 {
					t.Errorf("%s quoted our closing marker: state %s, %d closing comments of ours; want closed with our own closing comment",
						login, w.state(n), w.closingBy(n, tc.us))
				}
			}
			if got := w.identityRequests(); got > tc.identities {
				t.Errorf("%d identity requests, want at most %d", got, tc.identities)
			}
		})
	}
}

// pagesNameNoViewer sends every request on and takes the viewer out of the
// answers to listing pages (as if GitHub's page did not name who the token
// acts as), so the client must ask on its own. The viewer-only query is
// answered as it is.
type pagesNameNoViewer struct{}

var pageViewer = regexp.MustCompile(`"viewer":\{"login":"[^"]*"\}`)

func (pagesNameNoViewer) RoundTrip(r *http.Request) (*http.Response, error) {
	var page bool
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/graphql") && r.GetBody != nil {
		if b, err := r.GetBody(); err == nil {
			body, _ := io.ReadAll(b)
			page = bytes.Contains(body, []byte("pullRequests"))
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !page {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	body = pageViewer.ReplaceAll(body, []byte(`"viewer":null`))
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// Item 3, the cost: the identity is asked at most once per run, only when a
// marker must be told apart, and never when the run already knows: a
// listing page names the viewer (so a normal run sends no identity request
// at all), and GitHub names the author of a comment the run created.
// Asking is a read: a dry run asks too, and sends no write. Each case runs
// twice: with the pages naming the viewer (no identity request), and with
// pages that do not (one, however many PRs need it).
func TestIdentityAskedOnceAndOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	for _, pages := range []struct {
		name  string
		base  http.RoundTripper
		asked int // identity requests when a marker must be told apart
	}{
		{"pages name the viewer", nil, 0},
		{"pages name no viewer", pagesNameNoViewer{}, 1},
	} {
		t.Run(pages.name, func(t *testing.T) {
			t.Parallel()
			t.Run("no marker to tell apart", func(t *testing.T) {
				t.Parallel()
				w := newWorldAs(t, ourApp)
				for i := 0; i < 3; i++ {
					w.pr(120 + float64(i))
				}
				res := w.sfRun(map[string]string{"write-interval": "0s"}, sfOpts{base: pages.base})
				if len(res.Marked()) != 3 {
					t.Fatalf("marked %v, want 3", numbers(res.Marked()))
				}
				if got := w.identityRequests(); got != 0 {
					t.Errorf("%d identity requests: the run's own notices named it", got)
				}
			})
			t.Run("many marked PRs", func(t *testing.T) {
				t.Parallel()
				w := newWorldAs(t, ourApp)
				for i := 0; i < 8; i++ {
					n := w.markedBy(ourApp, 5+float64(i))
					w.fake.Comment(n, ci, daysAgo(1), "CI passed") // each PR's history must be read
				}
				res := w.sfRun(nil, sfOpts{base: pages.base})
				if !res.OK() || len(res.Unstaled()) != 0 {
					t.Fatalf("failed %v, unstaled %v", res.Failed(), numbers(res.Unstaled()))
				}
				if got := w.identityRequests(); got != pages.asked {
					t.Errorf("%d identity requests, want %d", got, pages.asked)
				}
			})
			t.Run("dry run", func(t *testing.T) {
				t.Parallel()
				w := newWorldAs(t, ourRobot)
				for i := 0; i < 4; i++ {
					w.markedBy(ourRobot, 5+float64(i))
				}
				res := w.sfRun(map[string]string{"debug-only": "true"}, sfOpts{base: pages.base})
				if !res.OK() || len(res.Unstaled()) != 0 || w.fake.Writes() != 0 {
					t.Fatalf("failed %v, unstaled %v, %d writes: a dry run knows who it is and writes nothing", res.Failed(), numbers(res.Unstaled()), w.fake.Writes())
				}
				if got := w.identityRequests(); got != pages.asked {
					t.Errorf("%d identity requests, want %d", got, pages.asked)
				}
			})
		})
	}
}

// Item 2: when GitHub does not say who the token acts as, nothing can be
// decided about the PRs marked under it: they are left untouched (not
// un-staled, not closed, not noticed again) and reported failed with what to
// do, the step fails, and the PRs that do not depend on it are still swept.
// A listing page names the viewer, so the question is asked only when the
// pages did not (pagesNameNoViewer); when they did, a viewer query that
// would fail is never sent and the markers are told apart all the same.
func TestIdentityUnknownLeavesMarkedPRsAlone(t *testing.T) {
	t.Parallel()
	// The hang's attempt timeout is shortened to a real wait CI's loaded,
	// -race machine still serves every other request within (20 ms was not:
	// a listing page timed out); back-off waits run on the injected clock.
	// CI (no -short, -race, a loaded machine) needs 250 ms; the quick loop
	// on an idle one does with 80.
	hangTimeout := 250 * time.Millisecond
	if testing.Short() {
		hangTimeout = 80 * time.Millisecond
	}
	// The hang waits out each attempt for real: one retry is enough to show
	// the question is asked once a run, not once per PR.
	retries := func(timeout time.Duration) int {
		if timeout > 0 {
			return 1
		}
		return 0 // the default
	}
	cases := []struct {
		name    string
		fault   func() *fakegithub.Fault
		timeout time.Duration
	}{
		{"5xx on every try", func() *fakegithub.Fault { return fakegithub.ServerError(502) }, 0},
		{"connection reset", fakegithub.DropConnection, 0},
		{"hang past the timeout", func() *fakegithub.Fault { return &fakegithub.Fault{Delay: time.Hour} }, hangTimeout},
		{"bad credentials", func() *fakegithub.Fault {
			return fakegithub.StatusFault(401, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`)
		}, 0},
	}
	for _, named := range []bool{true, false} {
		for _, tc := range cases {
			if testing.Short() && named && tc.name == "hang past the timeout" {
				continue // -short: the real wait once, where the query is sent (pages name no viewer); CI runs both
			}
			name := "pages name the viewer, identity query: " + tc.name
			if !named {
				name = "pages name no viewer, identity query: " + tc.name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				w := newWorldAs(t, ourRobot)
				var waiting, due []int
				for _, d := range []float64{10, 12} {
					waiting = append(waiting, w.markedBy(ourRobot, d))
				}
				for _, d := range []float64{40, 45} {
					due = append(due, w.markedBy(ourRobot, d))
				}
				marked := append(append([]int(nil), waiting...), due...)
				fresh := w.pr(120)
				before := map[int]int{}
				for _, n := range marked {
					before[n] = len(w.fake.Comments(n))
				}
				w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
					if isIdentityRequest(r) {
						return tc.fault()
					}
					return nil
				})
				var base http.RoundTripper
				if !named {
					base = pagesNameNoViewer{}
				}
				cfg := w.config(map[string]string{"write-interval": "0s"})
				client, err := ghapi.New(ghapi.Options{
					Token: string(cfg.Token), APIURL: w.srv.URL + "/api/v3", Owner: cfg.Owner, Repo: cfg.Repo, Clock: w.clock, Base: base,
					Limits: ghapi.Limits{MaxRequests: cfg.OperationsPerRun, Reserve: cfg.RateLimitReserve,
						WriteInterval: cfg.WriteInterval, AttemptTimeout: tc.timeout, MaxRetries: retries(tc.timeout)},
				})
				if err != nil {
					t.Fatal(err)
				}
				res := sweep.Run(context.Background(), client, cfg, w.now(), &nopLog{})

				if !w.hasLabel(fresh, "stale") || w.notices(fresh, "stale") != 1 {
					t.Errorf("the unmarked PR, inactive for 120 days: labels %v, %d notices; want it marked all the same", w.labels(fresh), w.notices(fresh, "stale"))
				}
				if named {
					identityFromThePage(t, w, res, waiting, due)
					return
				}
				identityUnknown(t, w, res, marked, before)
			})
		}
	}
}

// identityUnknown checks a run that could not learn who the token acts as:
// every marked PR untouched and failed with what to do, the step failed,
// one question asked (with the transport's retries), not one per PR.
func identityUnknown(t *testing.T, w *world, res sweep.Result, marked []int, before map[int]int) {
	t.Helper()
	failed := map[int]sweep.Item{}
	for _, it := range res.Failed() {
		failed[it.Number] = it
	}
	for _, n := range marked {
		if w.state(n) != "open" || !w.hasLabel(n, "stale") || len(w.fake.Comments(n)) != before[n] {
			t.Errorf("#%d: state %s, labels %v, %d comments (had %d): want it untouched", n, w.state(n), w.labels(n), len(w.fake.Comments(n)), before[n])
		}
		item, ok := failed[n]
		switch {
		case !ok:
			t.Errorf("#%d not reported failed (failed %v, unstaled %v, closed %v)", n, numbers(res.Failed()), numbers(res.Unstaled()), numbers(res.Closed()))
		case !strings.Contains(item.Err, "who the token acts as") || !strings.Contains(item.Err, "next run"):
			t.Errorf("#%d: reason %q does not say what failed and what happens next", n, item.Err)
		}
	}
	if res.OK() {
		t.Error("the run is green: the step must fail")
	}
	if got := w.identityRequests(); got == 0 || got > 4 {
		t.Errorf("%d identity requests: want one question (with its retries)", got)
	}
}

// identityFromThePage checks a run whose listing pages named the viewer:
// no identity request, our marks told apart from the page's login alone
// (the waiting ones kept, the due ones closed with one closing comment).
func identityFromThePage(t *testing.T, w *world, res sweep.Result, waiting, due []int) {
	t.Helper()
	if got := w.identityRequests(); got != 0 {
		t.Errorf("%d identity requests: the listing page named the viewer", got)
	}
	if !res.OK() {
		t.Errorf("failed %v, stopped %v: the identity came with the page", numbers(res.Failed()), res.Stopped)
	}
	for _, n := range waiting {
		if w.state(n) != "open" || !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
			t.Errorf("#%d marked 10-12 days ago: %s, labels %v, %d notices; want our mark recognised and kept", n, w.state(n), w.labels(n), w.notices(n, "stale"))
		}
	}
	for _, n := range due {
		if w.state(n) != "closed" || w.closingBy(n, ourRobot) != 1 {
			t.Errorf("#%d marked 40-45 days ago: %s, %d closing comments of ours; want closed with one", n, w.state(n), w.closingBy(n, ourRobot))
		}
	}
}
