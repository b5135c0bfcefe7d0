package ghapi_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
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

// TestPermission: an account's repository permission through the HTTP
// path: write, maintain and admin are write access; triage and read are
// not; a 404 is no collaborator; a refusal is an error (the sweep falls
// back to author_association).
func TestPermission(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.AddMember("maya")
	for login, role := range map[string]string{"wes": "write", "max": "maintain", "ada": "admin", "tri": "triage", "rae": "read"} {
		fake.SetPermission(login, role)
	}
	fake.AddMember("orgmate")
	fake.SetPermission("orgmate", "read") // a member of the organisation with no role here
	c := serve(t, fake, "/api/v3")
	for login, want := range map[string]lifecycle.Access{
		"maya": lifecycle.AccessWrite, "wes": lifecycle.AccessWrite, "max": lifecycle.AccessWrite, "ada": lifecycle.AccessWrite,
		"tri": lifecycle.AccessNone, "rae": lifecycle.AccessNone, "orgmate": lifecycle.AccessNone, "stranger": lifecycle.AccessNone,
	} {
		got, err := c.Permission(context.Background(), login)
		if err != nil || got != want {
			t.Errorf("Permission(%s) = %v, %v; want %v", login, got, err, want)
		}
	}
	fake.InjectFault(fakegithub.FaultRule{Route: "GET /repos/{owner}/{repo}/collaborators/{username}/permission",
		Fault: &fakegithub.Fault{Status: 403, Body: `{"message":"Must have push access to view collaborator permission."}`}})
	if got, err := c.Permission(context.Background(), "maya"); err == nil || got != lifecycle.AccessUnknown {
		t.Errorf("refused: %v, %v; want unknown and an error", got, err)
	}
}

// TestRESTTellsWhoIsWho: the REST reads fill what they know of the
// accounts: the PR author's type and association, a requested reviewer's
// type, and the accounts of commits made with a private GitHub e-mail.
func TestRESTTellsWhoIsWho(t *testing.T) {
	t.Parallel()
	fake := newFake()
	d := func(n int) time.Time { return t0.Add(time.Duration(n-30) * lifecycle.Day) }
	bot := fakegithub.Bot("dependabot[bot]")
	n := fake.AddPR(fakegithub.Issue{Title: "bump", User: bot, CreatedAt: d(0)})
	fake.RequestReview(n, bot, d(1), "Copilot")
	fake.PushAs(n, fakegithub.Person("maya"), d(2), "fixup")
	fake.Push(n, "Alice", d(3), "mine") // alice@example.com: no account
	fake.PushAs(n, bot, d(4), "rebase")
	c := serve(t, fake, "/api/v3")
	prs, _, err := c.ListPulls(context.Background(), sweep.Query{State: "open"}, 1)
	if err != nil || len(prs) != 1 {
		t.Fatalf("ListPulls: %v, %v", prs, err)
	}
	if !prs[0].AuthorBot || prs[0].AuthorAssociation != "NONE" {
		t.Errorf("listed PR: AuthorBot %v, association %q; want a bot, NONE", prs[0].AuthorBot, prs[0].AuthorAssociation)
	}
	events, err := c.Timeline(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	var commits []string
	for _, e := range events {
		switch e.Kind {
		case lifecycle.ReviewRequested:
			if e.Reviewer != "Copilot" || !e.ReviewerBot {
				t.Errorf("request of %q, bot %v; want Copilot, a bot", e.Reviewer, e.ReviewerBot)
			}
		case lifecycle.Committed:
			commits = append(commits, e.CommitAuthor+"/"+e.CommitCommitter)
		}
	}
	if want := []string{"maya/maya", "/", "dependabot[bot]/dependabot[bot]"}; !slices.Equal(commits, want) {
		t.Errorf("commit accounts %q, want %q", commits, want)
	}
}
