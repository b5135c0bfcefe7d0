package ghapi_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// TestOpenPullsReadsLinks: with the intake clock on (Query.Links), each
// listed PR carries the issues it closes when merged, as GitHub links
// them, with their labels, assignees and authors; a PR linking more than
// a page reads, or an issue whose labels were cut short, says so. Off, no
// link is read (Links.Read false) and the page is the same one point.
// Every page costs one point whichever.
func TestOpenPullsReadsLinks(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.SetPermission("carol", "write")
	day := lifecycle.Day
	issue := func(title, by string, labels ...string) int {
		return fake.AddIssue(fakegithub.Issue{Title: title, User: fakegithub.Person(by), Labels: labels, CreatedAt: t0.Add(-30 * day)})
	}
	accepted := issue("Crash", "carol", "accepted")
	plain := issue("Typo", "erin")
	var many []string
	for i := range 21 {
		many = append(many, fmt.Sprintf("area-%02d", i))
	}
	crowded := issue("Everything", "erin", many...)
	extra := issue("More", "erin")
	pr := func(body string) int {
		return fake.AddPR(fakegithub.Issue{Title: "x", Body: body, User: fakegithub.Person("dave"), CreatedAt: t0.Add(-2 * day), UpdatedAt: t0.Add(-2 * day)})
	}
	linksAccepted := pr(fmt.Sprintf("Fixes #%d", accepted))
	linksNothing := pr("An improvement nobody asked for.")
	linksFour := pr(fmt.Sprintf("Fixes #%d, fixes #%d, fixes #%d, fixes #%d", plain, extra, accepted, crowded))
	linksCrowded := pr(fmt.Sprintf("Closes #%d", crowded))
	for range 30 {
		pr("")
	}
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	listed, _, err := c.OpenPulls(ctx, sweep.Query{State: "open", Sort: "created", Direction: "asc", Links: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	byNumber := map[int]lifecycle.Links{}
	for _, l := range listed {
		if l.Err != nil {
			t.Errorf("#%d: %v", l.PR.Number, l.Err)
		}
		byNumber[l.PR.Number] = l.PR.Links
	}
	got := byNumber[linksAccepted]
	if !got.Read || got.More || len(got.Issues) != 1 || got.Issues[0].Number != accepted || got.Issues[0].Author != "carol" ||
		!slices.Equal(got.Issues[0].Labels, []string{"accepted"}) || got.Issues[0].Partial {
		t.Errorf("#%d links %+v, want #%d by carol labelled accepted", linksAccepted, got, accepted)
	}
	if got := byNumber[linksNothing]; !got.Read || got.More || len(got.Issues) != 0 {
		t.Errorf("#%d links %+v, want read and none", linksNothing, got)
	}
	if got := byNumber[linksFour]; !got.Read || !got.More || len(got.Issues) != 3 {
		t.Errorf("#%d links %+v, want 3 read and more", linksFour, got)
	}
	if got := byNumber[linksCrowded]; len(got.Issues) != 1 || !got.Issues[0].Partial {
		t.Errorf("#%d links %+v, want one issue, partly read", linksCrowded, got)
	}
	if points := c.Usage().Points; len(listed) >= 34 || points != 1 {
		t.Errorf("a page with links lists %d PRs for %d points: priced as without them", len(listed), points)
	}

	before := c.Usage().Points
	listed, _, err = c.OpenPulls(ctx, sweep.Query{State: "open", Sort: "created", Direction: "asc"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.PR.Links.Read {
			t.Fatalf("#%d: links read with the intake clock off", l.PR.Number)
		}
	}
	if points := c.Usage().Points - before; points != 1 {
		t.Errorf("a page without links cost %d points, want 1", points)
	}
}
