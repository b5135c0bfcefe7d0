package ghapi_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Viewer names the token's own login for every kind of token, in one read
// that a dry run sends too; on github.com's layout and Enterprise Server's.
func TestViewerNamesEveryKindOfToken(t *testing.T) {
	t.Parallel()
	for _, who := range []fakegithub.User{
		fakegithub.Bot("github-actions[bot]"), // GITHUB_TOKEN
		fakegithub.Bot("stalepr-app[bot]"),    // a GitHub App's installation token
		fakegithub.Person("release-robot"),    // a personal access token
	} {
		for _, root := range []string{"", "/api/v3"} {
			fake := fakegithub.New(fakegithub.Options{Clock: fakegithub.NewClock(t0), Login: who.Login, LoginType: who.Type})
			ts := httptest.NewServer(fake)
			c, err := ghapi.New(ghapi.Options{APIURL: ts.URL + root, Owner: fake.Owner(), Repo: fake.Repo(), Clock: fake.Clock(),
				Limits: ghapi.Limits{DryRun: true}})
			if err != nil {
				t.Fatal(err)
			}
			login, err := c.Viewer(context.Background())
			ts.Close()
			if err != nil || login != who.Login {
				t.Errorf("%s at %q: Viewer = %q, %v", who.Login, root, login, err)
			}
			if u := c.Usage(); u.Requests != 1 || u.Writes != 0 || fake.Writes() != 0 {
				t.Errorf("%s: %d requests, %d writes (fake: %d): want one read", who.Login, u.Requests, u.Writes, fake.Writes())
			}
		}
	}
}

// After a comment the client created, GitHub has named its author: WroteAs
// tells without a request.
func TestWroteAsIsTheCommentsAuthor(t *testing.T) {
	t.Parallel()
	fake := fakegithub.New(fakegithub.Options{Clock: fakegithub.NewClock(t0), Login: "stalepr-app[bot]", LoginType: "Bot"})
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
	c := serve(t, fake, "/api/v3")
	if got := c.WroteAs(); got != "" {
		t.Fatalf("WroteAs before any comment = %q, want empty", got)
	}
	if err := c.PostComment(context.Background(), n, "hello"); err != nil {
		t.Fatal(err)
	}
	if got := c.WroteAs(); got != "stalepr-app[bot]" {
		t.Errorf("WroteAs = %q, want the comment's author", got)
	}
	if u := c.Usage(); u.Requests != 1 {
		t.Errorf("%d requests, want the comment's only", u.Requests)
	}
}

// Only the exact viewer query passes a dry run: a mutation is refused
// before it is sent.
func TestDryRunStillRefusesMutations(t *testing.T) {
	t.Parallel()
	fake := newFake()
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	c, err := ghapi.New(ghapi.Options{APIURL: ts.URL, Owner: fake.Owner(), Repo: fake.Repo(), Clock: fake.Clock(),
		Limits: ghapi.Limits{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ConvertToDraft(context.Background(), fake.PullNodeID(n)); !errors.Is(err, ghapi.ErrDryRunWrite) {
		t.Fatalf("ConvertToDraft in a dry run: %v, want ErrDryRunWrite", err)
	}
	if fake.Count() != 0 {
		t.Fatalf("%d requests reached the server", fake.Count())
	}
}
