package ghapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// agents records each request's User-Agent by its path.
type agents struct {
	mu   sync.Mutex
	base http.RoundTripper
	seen map[string]string
}

func (a *agents) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	a.seen[r.Method+" "+r.URL.Path] = r.UserAgent()
	a.mu.Unlock()
	return a.base.RoundTrip(r)
}

// TestUserAgentOnEveryRequest: the GraphQL queries (a listing page, a
// fresh read) name stalepr to GitHub as its REST requests do, not as Go's
// HTTP client.
func TestUserAgentOnEveryRequest(t *testing.T) {
	fake := newFake()
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.AddDate(0, 0, -9), UpdatedAt: t0.AddDate(0, 0, -8)})
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	rec := &agents{base: fake.Transport(), seen: map[string]string{}}
	c, err := ghapi.New(ghapi.Options{APIURL: ts.URL, Owner: fake.Owner(), Repo: fake.Repo(), Clock: fake.Clock(), Base: rec, UserAgent: "stalepr/test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := c.OpenPulls(ctx, sweep.Query{}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PullsNow(ctx, []lifecycle.PR{{Number: n}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PullHead(ctx, n); err != nil {
		t.Fatal(err)
	}
	if len(rec.seen) < 2 {
		t.Fatalf("requests seen: %v", rec.seen)
	}
	for req, ua := range rec.seen {
		if ua != "stalepr/test" {
			t.Errorf("%s sent with User-Agent %q, want stalepr/test", req, ua)
		}
	}
}
