package ghapi_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// serve starts the fake and a client for its repository at root: "/api/v3"
// (Enterprise Server's layout) or "" (github.com's).
func serve(t *testing.T, fake *fakegithub.Server, root string) *ghapi.Client {
	t.Helper()
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	c, err := ghapi.New(ghapi.Options{APIURL: ts.URL + root, Owner: fake.Owner(), Repo: fake.Repo(), Clock: fake.Clock()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newFake() *fakegithub.Server {
	return fakegithub.New(fakegithub.Options{Clock: fakegithub.NewClock(t0)})
}
