package main

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// The tests run the whole program, which builds its client on
// http.DefaultTransport (ghapi.Options.Base is nil), as a run does. A fake
// served by serve is reached at a host of its own through the fake's
// in-process transport (fakegithub.Server.Transport): what a run decides and
// sends is the subject, and the loopback's sockets, goroutines and syscalls
// were a fifth of these tests' CPU. Any other host (a test's own
// httptest.Server, the sandbox's) still goes over the network stack.
func init() { http.DefaultTransport = byHost{next: http.DefaultTransport} }

// served maps a host that serve handed out to its fake's transport.
var served sync.Map

var servedCount atomic.Int64

type byHost struct{ next http.RoundTripper }

func (b byHost) RoundTrip(r *http.Request) (*http.Response, error) {
	if rt, ok := served.Load(r.URL.Host); ok {
		return rt.(http.RoundTripper).RoundTrip(r)
	}
	return b.next.RoundTrip(r)
}

// serve makes fake reachable for the test's runs and returns its base URL
// (GITHUB_API_URL is that with /api/v3).
func serve(t *testing.T, fake *fakegithub.Server) string {
	t.Helper()
	host := fmt.Sprintf("fake-%d.test", servedCount.Add(1))
	served.Store(host, fake.Transport())
	t.Cleanup(func() { served.Delete(host) })
	return "http://" + host
}
