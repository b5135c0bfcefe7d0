package sweep_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The intake clock end to end (docs/rules.md "The intake clock"), through
// the fake GitHub.

var intakeInputs = map[string]string{"days-before-intake-close": "7", "intake-accepted-labels": "accepted"}

// dave may not push: no collaborator, no permission.
var dave = fakegithub.Person("dave")

// unasked adds a PR dave opened d days ago that links no issue.
func (w *world) unasked(d float64, mod ...func(*fakegithub.Issue)) int {
	return w.pr(d, append([]func(*fakegithub.Issue){func(is *fakegithub.Issue) {
		is.User, is.CreatedAt, is.Body = dave, daysAgo(d), "An improvement nobody asked for."
	}}, mod...)...)
}

// intakeClosed reports whether PR n was closed by the intake clock: closed,
// with our closing comment in intake-close-message's words.
// closeByIntake runs the intake clock over #n until it closes it: the
// notice, then the close 7 days later.
func (w *world) closeByIntake(t *testing.T, n int, inputs map[string]string) {
	t.Helper()
	w.run(inputs)
	w.clock.Advance(7 * lifecycle.Day)
	w.run(inputs)
	if !w.intakeClosed(n) {
		t.Fatalf("#%d: %s, want closed by the intake clock", n, w.state(n))
	}
}

func (w *world) intakeClosed(n int) bool {
	for _, c := range w.fake.Comments(n) {
		if strings.Contains(c.Body, notice.CloseMarker(lifecycle.RuleIntake)) && strings.Contains(c.Body, "links no issue a maintainer accepted") {
			return w.state(n) == "closed"
		}
	}
	return false
}

// TestIntakeNoticeThenClose: one notice, in the run that finds the PR,
// never a second; the close after days-before-intake-close, with its own
// words and every close's marker; reported and forecast as every close.
func TestIntakeNoticeThenClose(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.unasked(1)
	member := w.pr(1, func(is *fakegithub.Issue) { is.User = fakegithub.Person("carol"); is.CreatedAt = daysAgo(1) })
	w.fake.SetPermission("carol", "write")
	res := w.run(intakeInputs)
	if w.notices(n, "intake") != 1 || !has(res.With(sweep.IntakeNotified), n) || w.hasLabel(n, "stale") {
		t.Fatalf("#%d: %d intake notices, labels %v, items %v: want one notice and no label", n, w.notices(n, "intake"), w.labels(n), res.Items)
	}
	if len(w.writesTo(member)) != 0 {
		t.Errorf("#%d, a member's PR, written to: %v", member, w.writesTo(member))
	}
	closes := daysAgo(0).Add(7 * lifecycle.Day)
	if !strings.Contains(w.fake.Comments(n)[0].Body, closes.Format("2006-01-02")) && !strings.Contains(w.fake.Comments(n)[0].Body, closes.Format("January 2, 2006")) {
		t.Errorf("the notice does not say when it closes (%v): %q", closes, w.fake.Comments(n)[0].Body)
	}
	if due := queued(res, n).Due; !due.Equal(closes) {
		t.Errorf("forecast close %v, want %v", due, closes)
	}
	for range 6 {
		w.clock.Advance(lifecycle.Day)
		w.run(intakeInputs)
	}
	if w.notices(n, "intake") != 1 || w.state(n) != "open" {
		t.Fatalf("after 6 more days: %d notices, %s; want one, open", w.notices(n, "intake"), w.state(n))
	}
	w.clock.Advance(lifecycle.Day)
	res = w.run(intakeInputs)
	if !w.intakeClosed(n) || !has(res.Closed(), n) || why(res.Items, n) != lifecycle.ReasonIntakeDue {
		t.Fatalf("#%d after 7 days: state %s, comments %d, reason %q: want closed by the intake clock", n, w.state(n), len(w.fake.Comments(n)), why(res.Items, n))
	}
}

// queued is PR n's item in the run's queue.
func queued(res sweep.Result, n int) sweep.QueueItem {
	for _, it := range res.Queue {
		if it.Number == n {
			return it
		}
	}
	return sweep.QueueItem{}
}

// TestIntakeLiftedByAMaintainer: a maintainer's comment, review, label or
// reopening after the notice, or an accepted issue linked since, keeps the
// PR open past the days; the author's own comment does not.
func TestIntakeLiftedByAMaintainer(t *testing.T) {
	t.Parallel()
	carol := fakegithub.Person("carol")
	for _, c := range []struct {
		name   string
		engage func(w *world, n int)
		lifted bool
	}{
		{"a maintainer's comment", func(w *world, n int) { w.fake.Comment(n, carol, w.now(), "Interesting, let me look.") }, true},
		{"a maintainer's review", func(w *world, n int) { w.fake.Review(n, carol, w.now(), "COMMENTED", "") }, true},
		{"a maintainer's label", func(w *world, n int) { w.fake.Label(n, carol, w.now(), "triage") }, true},
		{"a reopening by a maintainer", func(w *world, n int) {
			w.fake.Close(n, carol, w.now(), "")
			w.fake.Reopen(n, carol, w.now().Add(time.Minute))
		}, true},
		{"an accepted issue linked", func(w *world, n int) {
			k := w.fake.AddIssue(fakegithub.Issue{Title: "Crash", User: dave, Labels: []string{"accepted"}, CreatedAt: daysAgo(30)})
			w.fake.Edit(n, func(is *fakegithub.Issue) { is.Body = fmt.Sprintf("Fixes #%d", k) })
		}, true},
		{"the author's own comment", func(w *world, n int) { w.fake.Comment(n, dave, w.now(), "Please look at this.") }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake.SetPermission("carol", "write")
			n := w.unasked(1)
			w.run(intakeInputs)
			if w.notices(n, "intake") != 1 {
				t.Fatalf("no intake notice")
			}
			w.clock.Advance(lifecycle.Day)
			c.engage(w, n)
			w.clock.Advance(7 * lifecycle.Day)
			w.run(intakeInputs)
			if w.intakeClosed(n) == c.lifted {
				t.Fatalf("#%d after %s: state %s; want closed %v", n, c.name, w.state(n), !c.lifted)
			}
		})
	}
}

// TestIntakeFailsOpen: a failed read of the links, or an issue whose labels
// GitHub answered null, closes nothing and tells nothing: the PR is out of
// the class this run.
func TestIntakeFailsOpen(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fault func() *fakegithub.Fault
	}{
		{"the links' read fails", func() *fakegithub.Fault { return fakegithub.ServerError(502) }},
		{"an issue's labels null", func() *fakegithub.Fault {
			return fakegithub.EditAnswer(func(a map[string]any) {
				onAnswerObjects(a, func(x map[string]any) {
					if _, ok := x["labels"]; ok && x["number"] != nil {
						x["labels"] = nil
					}
				})
			})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			k := w.fake.AddIssue(fakegithub.Issue{Title: "Typo", User: dave, CreatedAt: daysAgo(30)})
			fresh := w.unasked(1, func(is *fakegithub.Issue) { is.Body = fmt.Sprintf("Fixes #%d", k) })
			told := w.unasked(20, func(is *fakegithub.Issue) { is.Body = fmt.Sprintf("Fixes #%d", k) })
			w.fake.Comment(told, action, daysAgo(10), notice.Body("Link an accepted issue.", notice.IntakeMarker()))
			var faults atomic.Int32
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if strings.Contains(r.Body, "closingIssuesReferences") {
					faults.Add(1)
					return c.fault()
				}
				return nil
			})
			w.run(intakeInputs)
			if faults.Load() == 0 {
				t.Fatal("the links were never read")
			}
			for _, n := range []int{fresh, told} {
				if got := w.writesTo(n); len(got) != 0 || w.state(n) != "open" {
					t.Errorf("#%d: state %s, writes %v; want untouched", n, w.state(n), got)
				}
			}
			w.fake.SetFaultHook(nil)
			w.run(intakeInputs)
			if !w.intakeClosed(told) || w.notices(fresh, "intake") != 1 {
				t.Errorf("with the links read: #%d %s, #%d %d notices; want it closed and the other told", told, w.state(told), fresh, w.notices(fresh, "intake"))
			}
		})
	}
}

// onAnswerObjects hands every object of a decoded answer to edit.
func onAnswerObjects(x any, edit func(map[string]any)) {
	switch x := x.(type) {
	case map[string]any:
		edit(x)
		for _, y := range x {
			onAnswerObjects(y, edit)
		}
	case []any:
		for _, y := range x {
			onAnswerObjects(y, edit)
		}
	}
}

// TestIntakeExempt: drafts, bots' PRs, a coding agent's PR whose human of
// record may push, exempt labels and authors are never the intake clock's;
// dave's own PR beside them is.
func TestIntakeExempt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.SetPermission("alice", "write")
	inputs := sfWith(intakeInputs, "exempt-pr-labels", "keep", "exempt-pr-authors", "erin")
	exempt := map[string]int{
		"a draft":       w.unasked(1, asDraft),
		"a bot's":       w.openPR(1, fakegithub.Bot("renovate[bot]")),
		"exempt label":  w.unasked(1, func(is *fakegithub.Issue) { is.Labels = []string{"keep"} }),
		"exempt author": w.openPR(1, fakegithub.Person("erin")),
	}
	agent := w.agentPR(1, false) // alice delegated it, and may push
	w.fake.ReadyForReview(agent, alice, daysAgo(0.5))
	exempt["an agent's, its human of record may push"] = agent
	n := w.unasked(1)
	res := w.run(inputs)
	for name, e := range exempt {
		if got := w.writesTo(e); len(got) != 0 {
			t.Errorf("%s (#%d): writes %v, want none", name, e, got)
		}
	}
	if w.notices(n, "intake") != 1 || len(res.With(sweep.IntakeNotified)) != 1 {
		t.Errorf("dave's own #%d: %d notices, %d told; want it alone told", n, w.notices(n, "intake"), len(res.With(sweep.IntakeNotified)))
	}
}

// TestIntakeDryRun: a dry run tells and closes nobody, and says what it
// would do.
func TestIntakeDryRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fresh := w.unasked(1)
	told := w.unasked(20)
	w.fake.Comment(told, action, daysAgo(10), notice.Body("Link an accepted issue.", notice.IntakeMarker()))
	before := w.fake.Writes()
	res := w.run(sfWith(intakeInputs, "debug-only", "true"))
	if got := w.fake.Writes() - before; got != 0 {
		t.Fatalf("a dry run sent %d writes", got)
	}
	if !has(res.With(sweep.IntakeNotified), fresh) || !has(res.Closed(), told) {
		t.Errorf("dry run: told %v, closed %v; want #%d told and #%d closed", numbers(res.With(sweep.IntakeNotified)), numbers(res.Closed()), fresh, told)
	}
}

// TestIntakeLeavesOlderPRs: turned on, the intake clock tells only the PRs
// opened lately; one open for weeks before is the other clocks', and its
// links are not read.
func TestIntakeLeavesOlderPRs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	old := w.unasked(30)
	young := w.unasked(1)
	var mu sync.Mutex
	var asked []string
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if strings.Contains(r.Body, "closingIssuesReferences") {
			asked = append(asked, r.Body)
		}
		return nil
	})
	w.run(intakeInputs)
	mu.Lock()
	defer mu.Unlock()
	if w.notices(old, "intake") != 0 || w.notices(young, "intake") != 1 {
		t.Errorf("#%d opened 30 days ago: %d notices; #%d opened yesterday: %d; want none and one", old, w.notices(old, "intake"), young, w.notices(young, "intake"))
	}
	if len(asked) != 1 || strings.Contains(asked[0], "$n1") {
		t.Errorf("links read in %d queries %q: want one, of the young PR alone", len(asked), asked)
	}
}

// TestIntakeCloseTrustedByTheAudit: the closure audit knows the intake
// clock's close as a deliberate rule while the clock is on (its marker
// names it), and does not reopen it as closed on the reviewers' turn.
func TestIntakeCloseTrustedByTheAudit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.unasked(1)
	inputs := sfWith(intakeInputs, "audit-closed-days", "30", "reopen-wrongly-closed", "true")
	w.closeByIntake(t, n, inputs)
	w.clock.Advance(lifecycle.Day)
	res := w.run(inputs)
	if w.state(n) != "closed" || has(res.With(sweep.Reopened), n) || len(res.WronglyClosed()) != 0 {
		t.Errorf("#%d after the audit: %s, wrongly closed %v; want it left closed", n, w.state(n), res.WronglyClosed())
	}
}
