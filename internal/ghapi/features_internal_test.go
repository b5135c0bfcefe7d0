package ghapi

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func TestGraphQLURL(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]string{
		"":                                    "https://api.github.com/graphql",
		"https://api.github.com":              "https://api.github.com/graphql",
		"https://ghe.example.com/api/v3":      "https://ghe.example.com/api/graphql",
		"https://ghe.example.com/api/v3/":     "https://ghe.example.com/api/graphql",
		"https://api.octo.ghe.com":            "https://api.octo.ghe.com/graphql",
		"http://127.0.0.1:8080/prefix/api/v3": "http://127.0.0.1:8080/prefix/api/graphql",
	} {
		c, err := New(Options{APIURL: api})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.graphqlURL(); got != want {
			t.Errorf("APIURL %q: GraphQL at %q, want %q", api, got, want)
		}
	}
}

func TestListRepositoriesNeedsInstallationToken(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(http.StatusForbidden, map[string]string{"Content-Type": "application/json"},
		`{"message":"You must authenticate with an installation access token in order to list repositories for an installation.","documentation_url":"https://docs.github.com/rest","status":"403"}`))
	c, err := New(Options{APIURL: srv.URL, Clock: fakegithub.NewClock(time.Time{})})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListRepositories(context.Background(), "octo-org", RepoListOptions{})
	if !errors.Is(err, errNotInstallation) {
		t.Errorf("err = %v, want ErrNotInstallation", err)
	}
}

func TestGraphQLRateLimitHeadersDoNotMoveTheReserve(t *testing.T) {
	t.Parallel()
	tr := newTransport(nil, Limits{Reserve: 100}, fakegithub.NewClock(time.Time{}))
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", "900")
	h.Set("X-RateLimit-Resource", "core")
	tr.observe(h)
	h.Set("X-RateLimit-Remaining", "50")
	h.Set("X-RateLimit-Resource", "graphql")
	tr.observe(h)
	if err := tr.admit(false, false); err != nil || tr.usage().RateRemaining != 900 {
		t.Errorf("after a GraphQL answer: admit %v, remaining %d; want the REST reading 900 kept", err, tr.usage().RateRemaining)
	}
}

// Issue 19 item 1: a request that may use the reserve goes below
// rate-limit-reserve, never past the window's last request, never after a
// stop, and never past operations-per-run.
func TestMayUseReserveFloors(t *testing.T) {
	t.Parallel()
	clock := fakegithub.NewClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	reading := func(tr *transport, remaining string) {
		h := http.Header{}
		h.Set("X-RateLimit-Limit", "1000")
		h.Set("X-RateLimit-Remaining", remaining)
		h.Set("X-RateLimit-Reset", "1900000000")
		tr.observe(h)
	}
	tr := newTransport(nil, Limits{Reserve: 100, MaxRequests: 10}, clock)
	reading(tr, "50")
	if err := tr.admit(false, false); !errors.Is(err, ErrRateReserve) {
		t.Errorf("50 left, reserve 100: admit %v, want the reserve reached", err)
	}
	if err := tr.admit(true, false); err != nil {
		t.Errorf("50 left, may use the reserve: admit %v, want admitted", err)
	}
	reading(tr, "0")
	if err := tr.admit(true, false); !errors.Is(err, ErrRateReserve) {
		t.Errorf("0 left: admit %v, want refused", err)
	}
	reading(tr, "50")
	tr.used = 10
	if err := tr.admit(true, false); !errors.Is(err, ErrBudget) {
		t.Errorf("operations-per-run spent: admit %v, want ErrBudget", err)
	}
	tr.used = 0
	tr.stop(ErrSecondary)
	if err := tr.admit(true, false); !errors.Is(err, ErrSecondary) {
		t.Errorf("after a stop: admit %v, want the stop", err)
	}
}
