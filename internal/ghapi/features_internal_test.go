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
	if err := tr.admit(false); err != nil || tr.usage().RateRemaining != 900 {
		t.Errorf("after a GraphQL answer: admit %v, remaining %d; want the REST reading 900 kept", err, tr.usage().RateRemaining)
	}
}
