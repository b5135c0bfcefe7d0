package ghapi_test

import (
	"context"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// An assignment reads who assigned whom (GraphQL's AssignedEvent actor and
// assignee), in REST's logins: on a coding agent's PR it names the person
// who delegated the work, whichever way GitHub records it.
func TestHistoryReadsAssignments(t *testing.T) {
	t.Parallel()
	fake := newFake()
	agent := fakegithub.Bot("Copilot")
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: agent, Draft: true, CreatedAt: t0.Add(-9 * lifecycle.Day)})
	fake.Assign(n, fakegithub.Person("alice"), t0.Add(-9*lifecycle.Day), agent)
	fake.Assign(n, agent, t0.Add(-8*lifecycle.Day), fakegithub.Person("bob"))
	fake.Assign(n, fakegithub.Person("alice"), t0.Add(-7*lifecycle.Day), fakegithub.Bot("devin-ai-integration[bot]"))
	c := serve(t, fake, "/api/v3")
	events, err := c.History(context.Background(), n, "")
	if err != nil {
		t.Fatal(err)
	}
	type who struct {
		actor, assignee string
		bot             bool
	}
	var got []who
	for _, e := range events {
		if e.Kind == lifecycle.Edited {
			got = append(got, who{e.Actor, e.Assignee, e.AssigneeBot})
		}
	}
	want := []who{{"alice", "Copilot", true}, {"Copilot", "bob", false}, {"alice", "devin-ai-integration[bot]", true}}
	if len(got) != len(want) {
		t.Fatalf("assignments %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("assignment %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
