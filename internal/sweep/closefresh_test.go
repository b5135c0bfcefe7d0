package sweep_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/sweep"
)

// TestCloseSeesWhatChangedSinceTheListing: a close writes the PR's whole
// label set (PATCH issue with labels), and a run's listing may be minutes
// old when the close is sent. What a person did to a PR due to close in
// between is not undone: a label they added stays on, and a PR they
// changed (the stale label taken off, a comment) is left for the next run
// to decide, not closed.
func TestCloseSeesWhatChangedSinceTheListing(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		act func(w *world, n int)
	}{
		"a label added":             {func(w *world, n int) { w.fake.Label(n, maint, w.now(), "needs-decision") }},
		"the stale label taken off": {func(w *world, n int) { w.fake.Unlabel(n, maint, w.now(), "stale") }},
		"a comment by the author":   {func(w *world, n int) { w.fake.Comment(n, alice, w.now(), "still on it") }},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(31)
			w.fake.Reset()
			// The person acts after the listing, before this run's first
			// request for the PR (the fresh read of the PRs about to be
			// closed, or a write).
			base := &hookBase{match: func(r *http.Request) bool {
				return isWrite(r) || isNowRead(r)
			}, hook: func() { w.clock.Advance(time.Minute); tc.act(w, n) }}
			res := w.sfRun(nil, sfOpts{base: base})
			if got := w.state(n); got != "open" {
				t.Fatalf("#%d %s, want open: %s since the listing; writes %v", n, got, name, w.writesTo(n))
			}
			if name == "a label added" && !slices.Contains(w.labels(n), "needs-decision") {
				t.Errorf("labels %v: the maintainer's needs-decision is gone", w.labels(n))
			}
			if c := w.notices(n, "close"); c != 0 {
				t.Errorf("%d closing comments on a PR left open", c)
			}
			if r := why(res.Skipped(), n); r != sweep.ReasonChangedSince {
				t.Errorf("#%d skipped as %q, want %q", n, r, sweep.ReasonChangedSince)
			}
			// The next run decides on what happened: each is a person's
			// action after the mark, so the PR is un-staled, and a label
			// the maintainer added stays.
			w.clock.Advance(time.Hour)
			w.run(nil)
			if w.state(n) != "open" || w.hasLabel(n, "stale") {
				t.Errorf("next run: #%d %s labels %v, want open and un-staled", n, w.state(n), w.labels(n))
			}
			if name == "a label added" && !slices.Contains(w.labels(n), "needs-decision") {
				t.Errorf("next run: labels %v, the maintainer's needs-decision is gone", w.labels(n))
			}
		})
	}
}

// TestCloseToDraftKeepsALabelAddedSinceTheListing: close-action draft
// writes the whole label set too (PUT labels), from the fresh read.
func TestCloseToDraftKeepsALabelAddedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(31)
	inputs := map[string]string{"close-action": "draft"}
	base := &hookBase{match: func(r *http.Request) bool {
		return isWrite(r) || isNowRead(r)
	}, hook: func() { w.fake.Label(n, maint, w.now(), "needs-decision") }}
	w.sfRun(inputs, sfOpts{base: base})
	w.clock.Advance(time.Hour)
	w.run(inputs) // the label is a person's activity: un-staled, not converted
	if !slices.Contains(w.labels(n), "needs-decision") {
		t.Fatalf("labels %v: the maintainer's needs-decision is gone (draft %v)", w.labels(n), w.fake.MustIssue(n).Draft)
	}
	if w.fake.MustIssue(n).Draft || w.hasLabel(n, "stale") {
		t.Errorf("draft %v labels %v: want a ready PR, un-staled", w.fake.MustIssue(n).Draft, w.labels(n))
	}
}

// TestMarkKeepsALabelAddedSinceTheListing: with labels-to-remove-when-stale
// a mark writes the PR's whole label set (PUT labels), computed from a read
// just before it: a label a person added since the listing stays on.
func TestMarkKeepsALabelAddedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(100, withLabels("needs-work"))
	inputs := map[string]string{"labels-to-remove-when-stale": "needs-work"}
	base := &hookBase{match: func(r *http.Request) bool {
		return isWrite(r) || isNowRead(r)
	}, hook: func() { w.fake.Label(n, maint, w.now(), "needs-decision") }}
	w.sfRun(inputs, sfOpts{base: base})
	if got := w.labels(n); !slices.Contains(got, "needs-decision") || !w.hasLabel(n, "stale") || slices.Contains(got, "needs-work") {
		t.Errorf("labels %v: want stale and the maintainer's needs-decision, and needs-work gone", got)
	}
}
