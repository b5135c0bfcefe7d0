package ghapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// A timeline in GitHub's shapes: each kind dates and attributes its events
// its own way.
const timelineJSON = `[
 {"event":"labeled","actor":{"login":"github-actions[bot]","type":"Bot"},"created_at":"2026-10-01T00:00:00Z","label":{"name":"stale","color":"ededed"}},
 {"event":"commented","actor":{"login":"github-actions[bot]","type":"Bot"},"user":{"login":"github-actions[bot]","type":"Bot"},"created_at":"2026-10-01T00:00:01Z","body":"stale\n\n<!-- stalepr:stale marked=2026-10-01T00:00:00Z -->"},
 {"sha":"abc","author":{"name":"Alice","date":"2020-01-01T00:00:00Z"},"committer":{"name":"Alice","date":"2026-10-02T00:00:00Z"},"message":"fix","event":"committed"},
 {"sha":"def","committer":{"name":"Alice","date":"2026-10-02T01:00:00Z"},"message":"no event field"},
 {"event":"reviewed","user":{"login":"bob","type":"User"},"submitted_at":"2026-10-03T00:00:00Z","state":"commented"},
 {"event":"line-commented","comments":[{"user":{"login":"carol","type":"User"},"created_at":"2026-10-04T00:00:00Z"}]},
 {"event":"commit-commented","comments":[{"user":{"login":"dave","type":"User"},"created_at":"2026-10-05T00:00:00Z"}]},
 {"event":"review_requested","actor":{"login":"alice","type":"User"},"created_at":"2026-10-06T00:00:00Z","requested_team":{"slug":"core"}},
 {"event":"assigned","actor":{"login":"erin","type":"User"},"created_at":"2026-10-07T00:00:00Z"},
 {"event":"cross-referenced","actor":{"login":"frank","type":"User"},"created_at":"2026-10-08T00:00:00Z"}
]`

func TestTimelineDecodesGitHubsShapes(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(timelineJSON)) })
	c, _ := newTestClient(t, srv, Limits{})
	events, err := c.Timeline(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	day := func(d int) time.Time { return time.Date(2026, 10, d, 0, 0, 0, 0, time.UTC) }
	want := []struct {
		kind  lifecycle.EventKind
		at    time.Time
		actor string
	}{
		{lifecycle.Labeled, day(1), "github-actions[bot]"},
		{lifecycle.Commented, day(1).Add(time.Second), "github-actions[bot]"},
		{lifecycle.Committed, day(2), ""},
		{lifecycle.Committed, day(2).Add(time.Hour), ""},
		{lifecycle.Reviewed, day(3), "bob"},
		{lifecycle.ReviewCommented, day(4), "carol"},
		{lifecycle.ReviewCommented, day(5), "dave"},
		{lifecycle.ReviewRequested, day(6), "alice"},
		{lifecycle.Edited, day(7), "erin"},
		{lifecycle.Other, day(8), "frank"},
	}
	if len(events) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(events), len(want), events)
	}
	for i, w := range want {
		e := events[i]
		if e.Kind != w.kind || !e.At.Equal(w.at) || e.Actor != w.actor {
			t.Errorf("event %d = {%v %v %q}, want {%v %v %q}", i, e.Kind, e.At, e.Actor, w.kind, w.at, w.actor)
		}
	}
	if events[1].Notice != lifecycle.StaleNotice || !events[1].MarkedAt.Equal(day(1)) {
		t.Errorf("our notice not recognised: %+v", events[1])
	}
	if events[7].Reviewer != lifecycle.TeamPrefix+"core" {
		t.Errorf("team request: reviewer %q", events[7].Reviewer)
	}
	a := lifecycle.Summarize(lifecycle.PR{Author: "alice"}, events, "stale", nil)
	if !a.LastPersonAt.Equal(day(7)) || a.LastPersonLogin != "erin" {
		t.Errorf("last person activity %v by %q, want the assignment on day 7 by erin (a cross-reference is not activity)", a.LastPersonAt, a.LastPersonLogin)
	}
}
