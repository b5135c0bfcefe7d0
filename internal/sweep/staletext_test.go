package sweep_test

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// TestStaleTextComesTrue: the default stale notice says what will happen
// to the PR it marks. A PR that is never closed (days-before-close -1, or
// an agent's PR whose own clock never closes) is told so, not that "it
// will be closed on never"; a PR that closes is given its date.
func TestStaleTextComesTrue(t *testing.T) {
	t.Parallel()
	byAgent := func(is *fakegithub.Issue) { is.User = copilot }
	commented5DaysAgo := func(is *fakegithub.Issue) { is.CreatedAt, is.UpdatedAt = daysAgo(200), daysAgo(5) }
	for _, tc := range []struct {
		name        string
		inputs      map[string]string
		mod         []func(*fakegithub.Issue)
		want, never string
	}{
		{"closes", nil, nil, "it will be closed on 2026-12-29 otherwise", "never"},
		{"never closes", map[string]string{"days-before-close": "-1"}, nil, "It will not be closed for being stale.", "closed on"},
		{"an agent's PR that never closes", map[string]string{"days-before-agent-pr-close": "-1"}, []func(*fakegithub.Issue){byAgent},
			"It will not be closed for being stale.", "closed on"},
		{"an agent's PR beside, that closes", map[string]string{"days-before-agent-pr-close": "-1"}, nil,
			"it will be closed on 2026-12-29 otherwise", "never"},
		{"author-turn, never closes", sfWith(authorTurnInputs, "days-before-close", "-1"), nil,
			"takes the label off. It will not be closed for being stale.", "closed on"},
		// ignore-updates counts from the opening: a comment 5 days ago
		// does not undo "no activity", so the notice says how long it has
		// been open.
		{"ignore-updates", map[string]string{"ignore-updates": "true"}, []func(*fakegithub.Issue){commented5DaysAgo},
			"This pull request has been open for 200 days", "no activity"},
		{"ignore-updates, never closes", map[string]string{"ignore-updates": "true", "days-before-close": "-1"},
			[]func(*fakegithub.Issue){commented5DaysAgo}, "has been open for 200 days, so it is now marked `stale`.\n\nIt will not be closed", "no activity"},
		{"the user's own text", map[string]string{"days-before-close": "-1", "stale-pr-message": "Stale; closes {{close-date}}."}, nil,
			"Stale; closes never.", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake.AddMember(maint.Login)
			n := w.openPR(100, alice, tc.mod...)
			if tc.inputs["stale-clock"] != "" {
				w.fake.Review(n, maint, daysAgo(20), "CHANGES_REQUESTED", "please rename") // the author's turn
			}
			w.run(tc.inputs)
			body := w.commentWith(n, "stale")
			if !strings.Contains(body, tc.want) || tc.never != "" && strings.Contains(body, tc.never) {
				t.Errorf("stale notice %q: want %q in it, and never %q", body, tc.want, tc.never)
			}
		})
	}
}

// TestStaleTextPostedLate: a notice posted late, on a PR our label marked
// without one (a run stopped between the two), is the mark's own text,
// true of the PR as the mark's is: under ignore-updates it says how long
// the PR has been open, under author-turn whose turn it is.
func TestStaleTextPostedLate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		inputs      map[string]string
		want, never string
	}{
		{"inactivity", nil, "This pull request has had no activity for", "open for"},
		{"ignore-updates", map[string]string{"ignore-updates": "true"}, "This pull request has been open for", "no activity"},
		{"author-turn", authorTurnInputs, "This pull request has been waiting on its author", "no activity"},
		{"the user's own text", map[string]string{"ignore-updates": "true", "stale-pr-message": "Stale for {{days-inactive}} days."}, "Stale for", "open for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake.AddMember(maint.Login)
			n := w.openPR(100, alice)
			w.fake.Review(n, maint, daysAgo(20), "CHANGES_REQUESTED", "please rename") // the author's turn
			w.fake.Label(n, action, daysAgo(2), "stale")
			w.run(tc.inputs)
			body := w.commentWith(n, "stale")
			if !strings.Contains(body, tc.want) || strings.Contains(body, tc.never) {
				t.Errorf("stale notice posted late %q: want %q in it, and never %q", body, tc.want, tc.never)
			}
		})
	}
}
