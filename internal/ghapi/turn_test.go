package ghapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestTimelineCarriesTheTurn: what whose-turn-it-is needs comes through the
// HTTP path in GitHub's shapes: author_association on comments, reviews and
// review comments, and the draft and review-request events.
func TestTimelineCarriesTheTurn(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.AddMember("maya")
	alice, maya, carol := fakegithub.Person("alice"), fakegithub.Person("maya"), fakegithub.Person("carol")
	d := func(n int) time.Time { return t0.Add(time.Duration(n-30) * lifecycle.Day) }
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: alice, CreatedAt: d(0), Draft: true})
	fake.ReadyForReview(n, alice, d(1))
	fake.Review(n, maya, d(2), "CHANGES_REQUESTED", "please fix")
	fake.LineComment(n, maya, d(2).Add(time.Minute), "a.go", "here")
	fake.Comment(n, carol, d(3), "+1")
	fake.Comment(n, alice, d(4), "done")
	fake.RequestReview(n, alice, d(5), "maya")
	fake.ConvertToDraft(n, alice, d(6))
	events, err := serve(t, fake, "/api/v3").Timeline(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		kind  lifecycle.EventKind
		actor string
		assoc string
	}
	want := []got{
		{lifecycle.ReadyForReview, "alice", ""},
		{lifecycle.Reviewed, "maya", "MEMBER"},
		{lifecycle.ReviewCommented, "maya", "MEMBER"},
		{lifecycle.Commented, "carol", "CONTRIBUTOR"},
		{lifecycle.Commented, "alice", "CONTRIBUTOR"},
		{lifecycle.ReviewRequested, "alice", ""},
		{lifecycle.ConvertedToDraft, "alice", ""},
	}
	if len(events) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(events), len(want), events)
	}
	for i, w := range want {
		if e := events[i]; (got{e.Kind, e.Actor, e.Association}) != w {
			t.Errorf("event %d = %+v, want %+v", i, got{e.Kind, e.Actor, e.Association}, w)
		}
	}
	pr := lifecycle.PR{Author: "alice", CreatedAt: d(0), Draft: true}
	if turn := lifecycle.Summarize(pr, events[:len(events)-1], "stale", nil).Turn; turn.Whose != lifecycle.TurnReviewers || !turn.Since.Equal(d(4)) {
		t.Errorf("before the conversion: %v since %s, want the reviewers' since the author's answer", turn.Whose, turn.Since)
	}
	if turn := lifecycle.Summarize(pr, events, "stale", nil).Turn; turn.Whose != lifecycle.TurnAuthor || !turn.Since.Equal(d(6)) {
		t.Errorf("after the conversion: %v since %s, want the author's since it became a draft", turn.Whose, turn.Since)
	}
}
