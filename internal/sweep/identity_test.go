package sweep_test

// Issue 19, items 2 and 3: who stalepr is. Its markers count only in
// comments by the identity the token writes as, which GitHub names for every
// kind of token; an identity that cannot be learnt leaves the PRs marked
// under it alone and fails the step. Every test runs through the HTTP path
// against the fake GitHub.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
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
// as, whichever way the client asks.
func isIdentityRequest(r fakegithub.RequestInfo) bool {
	return r.Route == "GET /user" || r.Route == "POST /graphql" && strings.Contains(r.Body, "viewer")
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
		{"GITHUB_TOKEN", action, []fakegithub.User{ci, ourApp}, 1},
		{"GitHub App installation token", ourApp, []fakegithub.User{action, ci}, 1},
		{"personal access token", ourRobot, []fakegithub.User{action, ci, ourApp}, 1},
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

// Item 3, the cost: the identity is asked at most once per run, only when a
// marker must be told apart, and never when the run's own comment already
// told (GitHub names the author of the comment it created). Asking is a
// read: a dry run asks too, and sends no write.
func TestIdentityAskedOnceAndOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	t.Run("no marker to tell apart", func(t *testing.T) {
		t.Parallel()
		w := newWorldAs(t, ourApp)
		for i := 0; i < 3; i++ {
			w.pr(120 + float64(i))
		}
		res := w.run(map[string]string{"write-interval": "0s"})
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
			w.fake.Comment(n, ci, daysAgo(1), "CI passed") // each PR needs its timeline
		}
		res := w.run(nil)
		if !res.OK() || len(res.Unstaled()) != 0 {
			t.Fatalf("failed %v, unstaled %v", res.Failed(), numbers(res.Unstaled()))
		}
		if got := w.identityRequests(); got != 1 {
			t.Errorf("%d identity requests, want 1", got)
		}
	})
	t.Run("dry run", func(t *testing.T) {
		t.Parallel()
		w := newWorldAs(t, ourRobot)
		for i := 0; i < 4; i++ {
			w.markedBy(ourRobot, 5+float64(i))
		}
		res := w.run(map[string]string{"debug-only": "true"})
		if !res.OK() || len(res.Unstaled()) != 0 || w.fake.Writes() != 0 {
			t.Fatalf("failed %v, unstaled %v, %d writes: a dry run asks who it is and writes nothing", res.Failed(), numbers(res.Unstaled()), w.fake.Writes())
		}
		if got := w.identityRequests(); got != 1 {
			t.Errorf("%d identity requests, want 1", got)
		}
	})
}

// Item 2: when GitHub does not say who the token acts as, nothing can be
// decided about the PRs marked under it: they are left untouched (not
// un-staled, not closed, not noticed again) and reported failed with what to
// do, the step fails, and the PRs that do not depend on it are still swept.
func TestIdentityUnknownLeavesMarkedPRsAlone(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault func() *fakegithub.Fault
	}{
		{"5xx on every try", func() *fakegithub.Fault { return fakegithub.ServerError(502) }},
		{"connection reset", fakegithub.DropConnection},
		// The attempt timeout is shortened to a few milliseconds: no real
		// 30 s waits (back-off waits run on the injected clock).
		{"hang past the timeout", func() *fakegithub.Fault { return &fakegithub.Fault{Delay: 300 * time.Millisecond} }},
		{"bad credentials", func() *fakegithub.Fault {
			return fakegithub.StatusFault(401, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorldAs(t, ourRobot)
			var marked []int
			for _, d := range []float64{10, 12, 40, 45} {
				marked = append(marked, w.markedBy(ourRobot, d))
			}
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
			cfg := w.config(map[string]string{"write-interval": "0s"})
			client, err := ghapi.New(ghapi.Options{
				Token: string(cfg.Token), APIURL: w.srv.URL + "/api/v3", Owner: cfg.Owner, Repo: cfg.Repo, Clock: w.clock,
				Limits: ghapi.Limits{MaxRequests: cfg.OperationsPerRun, Reserve: cfg.RateLimitReserve,
					WriteInterval: cfg.WriteInterval, AttemptTimeout: 20 * time.Millisecond},
			})
			if err != nil {
				t.Fatal(err)
			}
			log := &nopLog{}
			res := sweep.Run(context.Background(), client, cfg, w.now(), log)

			for _, n := range marked {
				if w.state(n) != "open" || !w.hasLabel(n, "stale") || len(w.fake.Comments(n)) != before[n] {
					t.Errorf("#%d: state %s, labels %v, %d comments (had %d): want it untouched", n, w.state(n), w.labels(n), len(w.fake.Comments(n)), before[n])
				}
				var item *sweep.Item
				for i := range res.Failed() {
					if res.Failed()[i].Number == n {
						item = &res.Failed()[i]
					}
				}
				if item == nil {
					t.Errorf("#%d not reported failed (failed %v, unstaled %v, closed %v)", n, numbers(res.Failed()), numbers(res.Unstaled()), numbers(res.Closed()))
					continue
				}
				if !strings.Contains(item.Err, "who the token acts as") || !strings.Contains(item.Err, "next run") {
					t.Errorf("#%d: reason %q does not say what failed and what happens next", n, item.Err)
				}
			}
			if res.OK() {
				t.Error("the run is green: the step must fail")
			}
			if !w.hasLabel(fresh, "stale") || w.notices(fresh, "stale") != 1 {
				t.Errorf("the unmarked PR, inactive for 120 days: labels %v, %d notices; want it marked all the same", w.labels(fresh), w.notices(fresh, "stale"))
			}
			// One question, with the transport's retries: not one per PR.
			if got := w.identityRequests(); got > 4 {
				t.Errorf("%d identity requests: asked more than once", got)
			}
		})
	}
}
