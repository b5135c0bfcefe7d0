package dashboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/dashboard"
)

var t0 = time.Date(2026, 12, 1, 3, 17, 0, 0, time.UTC)

const (
	self  = "github-actions[bot]"
	above = "Triage notes (by a maintainer):\n\n- ping @alice on Fridays\n\n"
	below = "\n\n<!-- mine -->\nSee also #12.\n"
)

// written is the body of an issue of ours whose block holds content,
// written at t0, with text around it.
func written(before, content, after string) string {
	return before + dashboard.Block(content, t0) + after
}

func issue(n int, state, body string) api.Issue {
	return api.Issue{Number: n, State: state, Body: body, Author: self}
}

// TestDecide: the update each state of our issues calls for, with the
// person's text outside the block kept to the byte.
func TestDecide(t *testing.T) {
	t.Parallel()
	later := t0.Add(24 * time.Hour)
	for _, tc := range []struct {
		name    string
		ours    []api.Issue
		content string
		want    dashboard.Action
		kept    int    // the issue kept (0 for Create)
		body    string // the body written, when Create or Edit
		reason  string
		dups    []int
	}{
		{name: "none yet: created, label and markers in one request", content: "3 stale", want: dashboard.Create,
			body: dashboard.Block("3 stale", later) + "\n"},
		{name: "the same content at a later time: nothing written", content: "3 stale", want: dashboard.UpToDate, kept: 1,
			ours: []api.Issue{issue(1, "open", written("", "3 stale", ""))}},
		{name: "the web editor's CRLF line ends alone are no change", content: "3 stale\n\n| PR |\n| --- |", want: dashboard.UpToDate, kept: 1,
			ours: []api.Issue{issue(1, "open", strings.ReplaceAll(written(above, "3 stale\n\n| PR |\n| --- |", below), "\n", "\r\n"))}},
		{name: "changed content: the block edited, the person's text kept", content: "5 stale", want: dashboard.Edit, kept: 1,
			ours: []api.Issue{issue(1, "open", written(above, "3 stale", below))},
			body: above + dashboard.Block("5 stale", later) + below},
		{name: "a person's text quoting the start marker is theirs", content: "5 stale", want: dashboard.Edit, kept: 1,
			ours: []api.Issue{issue(1, "open", written("Do not edit below `<!-- stalepr:dashboard -->`.\n\n", "3 stale", ""))},
			body: "Do not edit below `<!-- stalepr:dashboard -->`.\n\n" + dashboard.Block("5 stale", later)},
		{name: "a person's text quoting both markers is theirs", content: "5 stale", want: dashboard.Edit, kept: 1,
			ours: []api.Issue{issue(1, "open", written("between `<!-- stalepr:dashboard -->` and `<!-- /stalepr:dashboard -->`\n\n", "3 stale", ""))},
			body: "between `<!-- stalepr:dashboard -->` and `<!-- /stalepr:dashboard -->`\n\n" + dashboard.Block("5 stale", later)},
		{name: "a person's text quoting the end marker first is theirs", content: "5 stale", want: dashboard.Edit, kept: 1,
			ours: []api.Issue{issue(1, "open", written("It ends at <!-- /stalepr:dashboard --> and starts at <!-- stalepr:dashboard -->.\n\n", "3 stale", ""))},
			body: "It ends at <!-- /stalepr:dashboard --> and starts at <!-- stalepr:dashboard -->.\n\n" + dashboard.Block("5 stale", later)},
		{name: "markers removed: the person's issue now", content: "5 stale", want: dashboard.LeftAlone, kept: 1,
			ours: []api.Issue{issue(1, "open", "All mine now.")}, reason: dashboard.ReasonNoMarkers},
		{name: "closed by a person: left closed, no second one", content: "5 stale", want: dashboard.LeftAlone, kept: 1,
			ours: []api.Issue{issue(1, "closed", written("", "3 stale", ""))}, reason: dashboard.ReasonClosed},
		{name: "two runs at once made two: the oldest kept, the other closed", content: "3 stale", want: dashboard.UpToDate, kept: 4,
			ours: []api.Issue{issue(4, "open", written("", "3 stale", "")), issue(5, "open", written("", "3 stale", "")), issue(6, "closed", "")},
			dups: []int{5}},
		{name: "a closed oldest is kept closed; its open copies are closed", content: "3 stale", want: dashboard.LeftAlone, kept: 4,
			ours:   []api.Issue{issue(4, "closed", written("", "3 stale", "")), issue(5, "open", written("", "3 stale", ""))},
			reason: dashboard.ReasonClosed, dups: []int{5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := dashboard.Decide(tc.ours, tc.content, later)
			if p.Action != tc.want || p.Issue.Number != tc.kept || p.Reason != tc.reason {
				t.Errorf("Decide = action %d on #%d (%q), want %d on #%d (%q)", p.Action, p.Issue.Number, p.Reason, tc.want, tc.kept, tc.reason)
			}
			if p.Body != tc.body {
				t.Errorf("body:\n%q\nwant:\n%q", p.Body, tc.body)
			}
			var dups []int
			for _, d := range p.Duplicates {
				dups = append(dups, d.Number)
			}
			if len(dups) != len(tc.dups) || len(dups) > 0 && dups[0] != tc.dups[0] {
				t.Errorf("duplicates %v, want %v", dups, tc.dups)
			}
		})
	}
}

// TestOurs: only the issues our identity wrote are ours (a person's issue
// with our label and markers is not), told case-insensitively, oldest
// first.
func TestOurs(t *testing.T) {
	t.Parallel()
	list := []api.Issue{
		{Number: 9, Author: "GitHub-Actions[bot]"},
		{Number: 3, Author: "mallory", Body: written("", "x", "")},
		{Number: 7, Author: self},
	}
	got := dashboard.Ours(list, self)
	if len(got) != 2 || got[0].Number != 7 || got[1].Number != 9 {
		t.Errorf("Ours = %+v, want #7 then #9", got)
	}
}

// TestBlockRoundTrips: what Block writes, Content reads back without its
// stamp, and Merge replaces in place.
func TestBlockRoundTrips(t *testing.T) {
	t.Parallel()
	body := written(above, "3 stale\n", below)
	if got, ok := dashboard.Content(body); !ok || got != "3 stale" {
		t.Errorf("Content = %q, %v", got, ok)
	}
	if !strings.Contains(body, "2026-12-01 03:17 UTC") {
		t.Errorf("no stamp of the run's time in %q", body)
	}
	merged, ok := dashboard.Merge(body, dashboard.Block("4 stale", t0))
	if !ok || merged != written(above, "4 stale", below) {
		t.Errorf("Merge = %q, %v", merged, ok)
	}
}
