package ghapi_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
)

// Hold sets requests of operations-per-run aside until released: the sweep
// sees them as spent, the step after it gets them.
func TestHoldSetsRequestsAside(t *testing.T) {
	t.Parallel()
	fake := fakegithub.New(fakegithub.Options{Owner: "o", Repo: "r", Token: "t", Clock: fakegithub.NewClock(time.Now())})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := ghapi.New(ghapi.Options{Token: "t", APIURL: srv.URL, Owner: "o", Repo: "r", Clock: fakegithub.NewClock(time.Now()),
		Limits: ghapi.Limits{MaxRequests: 3}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	release := c.Hold(2)
	if n := c.RequestsLeft(); n != 1 {
		t.Errorf("RequestsLeft = %d with 2 of 3 held, want 1", n)
	}
	if _, err := c.LabelledIssues(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LabelledIssues(ctx, "x"); !errors.Is(err, ghapi.ErrBudget) {
		t.Errorf("request past the held budget: %v, want ErrBudget", err)
	}
	release()
	release() // a second call gives nothing back twice
	if n := c.RequestsLeft(); n != 2 {
		t.Errorf("RequestsLeft after release = %d, want 2", n)
	}
	for i := 0; i < 2; i++ {
		if _, err := c.LabelledIssues(ctx, "x"); err != nil {
			t.Fatalf("held request %d: %v", i+1, err)
		}
	}
}
