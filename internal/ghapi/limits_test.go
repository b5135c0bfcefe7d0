package ghapi_test

// Issue 30 items 10 to 12: pages that never end, answers too large to
// accept, the points reserve with a reset in the past, and pages that
// disagree about who the token is. Each through the HTTP path against the
// fake GitHub, counting the requests it logged.

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
)

// TestPointsReserveHoldsWithAResetInThePast: the runner's clock two hours
// ahead of GitHub's, so every rateLimit.resetAt and graphql x-ratelimit-reset
// is already past when read. The reading still holds until the next one, as
// REST's does: 101 points left and a reserve of 100 allow one query, not a
// second.
func TestPointsReserveHoldsWithAResetInThePast(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.AddPR(fakegithub.Issue{Title: "a PR", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-48 * time.Hour), UpdatedAt: t0.Add(-24 * time.Hour)})
	fake.SetGraphQLRateRemaining(101)
	ahead := fakegithub.NewClock(t0.Add(2 * time.Hour))
	c := hostile(t, fake, ghapi.Limits{Reserve: 100}, ahead)
	if _, _, err := c.OpenPulls(context.Background(), sweep.Query{}, ""); err != nil {
		t.Fatalf("first page: %v", err)
	}
	_, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if !errors.Is(err, ghapi.ErrRateReserve) {
		t.Errorf("second page with 100 points left, reserve 100: err = %v, want the reserve reached", err)
	}
	if n := fake.Count(); n != 1 {
		t.Errorf("%d queries sent, want 1: the second would spend the reserve", n)
	}
	if left := fake.GraphQLRateRemaining(); left < 100 {
		t.Errorf("%d points left, want the reserve of 100 kept", left)
	}
}
