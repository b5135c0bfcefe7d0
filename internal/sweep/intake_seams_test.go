package sweep_test

import (
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestIntakeDraftCloseReadied: under close-action draft the intake clock's
// close converts the PR to a draft; its author marking it ready again is
// the draft's reopening, and the clock counts a full window from it, as
// from a reopening, instead of converting it again at once with no word.
func TestIntakeDraftCloseReadied(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.unasked(1)
	inputs := sfWith(intakeInputs, "close-action", "draft")
	w.run(inputs)
	w.clock.Advance(7 * lifecycle.Day)
	w.run(inputs)
	if !w.fake.MustIssue(n).Draft || w.state(n) != "open" {
		t.Fatalf("#%d after 7 days: draft %v, %s; want converted to a draft", n, w.fake.MustIssue(n).Draft, w.state(n))
	}
	w.clock.Advance(lifecycle.Day)
	w.fake.ReadyForReview(n, dave, w.now())
	w.clock.Advance(lifecycle.Day)
	res := w.run(inputs)
	if w.fake.MustIssue(n).Draft || has(res.Closed(), n) {
		t.Fatalf("#%d readied by its author a day ago: draft %v, closed this run %v (%q); want left to its new window", n, w.fake.MustIssue(n).Draft, has(res.Closed(), n), why(res.Items, n))
	}
	w.clock.Advance(7 * lifecycle.Day)
	w.run(inputs)
	if !w.fake.MustIssue(n).Draft {
		t.Errorf("#%d a full window after it was readied: not converted again", n)
	}
}

// TestIntakeReopenedOnCommand: /reopen undoes stalepr's stale close, not
// the intake clock's: a PR nobody asked for, reopened on its author's word
// alone, would be closed again in its window. The command is left
// unanswered, as every ignored one, and the PR closed; the intake closing
// comment says the way back (an accepted issue, a maintainer).
func TestIntakeReopenedOnCommand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.unasked(1)
	w.closeByIntake(t, n, intakeInputs)
	w.clock.Advance(lifecycle.Day)
	w.fake.Comment(n, dave, w.now(), "/reopen")
	w.clock.Advance(lifecycle.Day)
	w.run(intakeInputs)
	if w.state(n) != "closed" || w.notices(n, "answered") != 0 {
		t.Fatalf("#%d after its author's /reopen: %s, %d answers; want closed, unanswered", n, w.state(n), w.notices(n, "answered"))
	}
}
