package sweep_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The reopen command end to end (docs/rules.md "Reopen on command"): a
// comment "/reopen" on a PR stalepr closed as stale, through the HTTP
// path, on the event run (issue_comment) and on the scheduled run that is
// its backstop. Every case is judged from the fake's records.

var commandInputs = map[string]string{"close-pr-label": "closed-stale", "write-interval": "0s"}

// commandRun answers the reopen command on PR n after sender's comment,
// as main does on an issue_comment event, on the event path's budget.
func (w *world) commandRun(inputs map[string]string, n int, sender string) sweep.Result {
	w.t.Helper()
	cfg := w.config(sfWith(commandInputs, flatten(inputs)...))
	cfg.OperationsPerRun = sweep.EventRequests
	return sweep.New(w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{}).Command(context.Background(), n, sender)
}

func flatten(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}

// commandPaths are the two ways a command is answered: at once by its
// event's run, or by the next scheduled run.
var commandPaths = map[string]func(w *world, inputs map[string]string, n int, sender string) sweep.Result{
	"event": func(w *world, inputs map[string]string, n int, sender string) sweep.Result {
		return w.commandRun(inputs, n, sender)
	},
	"schedule": func(w *world, inputs map[string]string, n int, _ string) sweep.Result {
		return w.run(sfWith(commandInputs, flatten(inputs)...))
	},
}

// asked adds a PR stalepr closed as stale 3 days ago, and by's command
// two hours ago (the scheduled run leaves a younger one to its event run).
func (w *world) asked(by fakegithub.User, mod ...func(*fakegithub.Issue)) int {
	n := w.ourClosed(130, 3)
	w.fake.Edit(n, func(is *fakegithub.Issue) {
		for _, m := range mod {
			m(is)
		}
	})
	w.fake.Comment(n, by, t0.Add(-2*time.Hour), "/reopen")
	return n
}

// TestCommandAuthorReopens: the author's /reopen reopens the PR, takes
// close-pr-label off and answers once, saying the clock starts afresh and
// that the workflows wait for a maintainer's approval; the event run sends
// 3 requests (the read, the reopening with its labels, the answer).
func TestCommandAuthorReopens(t *testing.T) {
	t.Parallel()
	for path, run := range commandPaths {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			n := w.asked(alice)
			before := w.fake.Count()
			res := run(w, nil, n, alice.Login)
			if w.state(n) != "open" || w.hasLabel(n, "closed-stale") || !has(res.ReopenedOnCommand(), n) {
				t.Fatalf("#%d: %s, labels %v, reopened on command %v; want open, close-pr-label off", n, w.state(n), w.labels(n), numbers(res.ReopenedOnCommand()))
			}
			if got := w.notices(n, "answered"); got != 1 {
				t.Fatalf("%d answers, want 1", got)
			}
			answer := w.fake.Comments(n)[len(w.fake.Comments(n))-1].Body
			if !strings.Contains(answer, "stale clock starts afresh") || !strings.Contains(answer, "approves them") {
				t.Errorf("the answer does not say the clock starts afresh and the runs wait for approval:\n%s", answer)
			}
			if path == "event" {
				if got := w.fake.Count() - before; got > 3 {
					t.Errorf("the event run sent %d requests, want at most 3: %v", got, w.fake.CountBy())
				}
			}
			// The clock starts afresh (rule 5): the next run neither
			// marks nor closes it, and answers nothing again.
			again := w.run(commandInputs)
			if w.state(n) != "open" || w.hasLabel(n, "stale") || w.notices(n, "answered") != 1 {
				t.Errorf("the next run: #%d %s, labels %v, %d answers; want it left open and unmarked, one answer", n, w.state(n), w.labels(n), w.notices(n, "answered"))
			}
			if has(again.ReopenedOnCommand(), n) {
				t.Error("the next run reopened it again")
			}
		})
	}
}

// TestCommandMaintainerReopens: someone with write access who is not the
// author may ask too; their access is one read (the event run: 4
// requests).
func TestCommandMaintainerReopens(t *testing.T) {
	t.Parallel()
	for path, run := range commandPaths {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			w.fake.SetPermission(maint.Login, "write")
			n := w.asked(maint)
			before := w.fake.Count()
			run(w, nil, n, maint.Login)
			if w.state(n) != "open" || w.notices(n, "answered") != 1 {
				t.Fatalf("#%d: %s with %d answers after a maintainer's command; want it reopened, one answer", n, w.state(n), w.notices(n, "answered"))
			}
			if path == "event" {
				if got := w.fake.Count() - before; got > 4 {
					t.Errorf("the event run sent %d requests, want at most 4: %v", got, w.fake.CountBy())
				}
			}
		})
	}
}

// TestCommandLeftAlone: what the command never does, on either path:
// nothing is written for a third person's command (ignored, unanswered),
// on a person's close, a merged or a locked PR, nor in a dry run.
func TestCommandLeftAlone(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		setup  func(w *world) (n int, sender string)
		inputs map[string]string
		why    lifecycle.Reason // the event run's reason ("" for a dry run's plan)
	}{
		"a third person's command": {func(w *world) (int, string) {
			return w.asked(bob), bob.Login
		}, nil, lifecycle.ReasonCommandStranger},
		"a member without write access": {func(w *world) (int, string) {
			w.fake.AddMember("mia")
			w.fake.SetPermission("mia", "read")
			return w.asked(fakegithub.Person("mia")), "mia"
		}, nil, lifecycle.ReasonCommandStranger},
		"a person's close": {func(w *world) (int, string) {
			n := w.openPR(100, alice)
			w.fake.Close(n, maint, daysAgo(2), "")
			w.fake.Comment(n, alice, t0.Add(-2*time.Hour), "/reopen")
			return n, alice.Login
		}, nil, lifecycle.ReasonCommandNotOurs},
		"merged": {func(w *world) (int, string) {
			n := w.openPR(100, alice)
			w.fake.Merge(n, maint, daysAgo(2))
			w.fake.Comment(n, alice, t0.Add(-2*time.Hour), "/reopen")
			return n, alice.Login
		}, nil, lifecycle.ReasonCommandMerged},
		"locked": {func(w *world) (int, string) {
			return w.asked(alice, locked), alice.Login
		}, nil, lifecycle.ReasonLocked},
		"the command off": {func(w *world) (int, string) {
			return w.asked(alice), alice.Login
		}, map[string]string{"reopen-command": ""}, sweep.ReasonCommandOff},
		"no command in its history": {func(w *world) (int, string) {
			return w.ourClosed(130, 3), alice.Login // the payload's comment edited away since
		}, nil, sweep.ReasonCommandNone},
		"a dry run": {func(w *world) (int, string) {
			return w.asked(alice), alice.Login
		}, map[string]string{"debug-only": "true"}, ""},
	} {
		for path, run := range commandPaths {
			t.Run(name+"/"+path, func(t *testing.T) {
				t.Parallel()
				w := turnWorld(t)
				n, sender := tc.setup(w)
				state := w.state(n)
				res := run(w, tc.inputs, n, sender)
				if writes := w.writesTo(n); len(writes) > 0 {
					t.Fatalf("#%d: writes %v; want none", n, writes)
				}
				if w.state(n) != state {
					t.Errorf("#%d: %s, was %s", n, w.state(n), state)
				}
				if path == "event" && tc.why != "" {
					if got := why(res.Items, n); got != tc.why {
						t.Errorf("#%d reported %q, want %q", n, got, tc.why)
					}
				}
				if tc.why == "" && !has(res.ReopenedOnCommand(), n) {
					t.Errorf("the dry run does not show #%d reopened on command: %v", n, res.Items)
				}
			})
		}
	}
}

// TestCommandBranchGone: GitHub cannot reopen a PR whose head branch is
// gone (the fake answers 422, as GitHub does); the command is answered
// once, saying so and how to continue from its commits, and nothing is
// sent to reopen it.
func TestCommandBranchGone(t *testing.T) {
	t.Parallel()
	for path, run := range commandPaths {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			n := w.asked(alice)
			w.fake.DeleteBranch(w.fake.MustIssue(n).HeadRef)
			res := run(w, nil, n, alice.Login)
			if w.state(n) != "closed" || len(res.With(sweep.CommandAnswered)) != 1 || w.notices(n, "answered") != 1 {
				t.Fatalf("#%d: %s, %d answers, answered %v; want it closed and answered once", n, w.state(n), w.notices(n, "answered"), numbers(res.With(sweep.CommandAnswered)))
			}
			for _, r := range w.writesTo(n) {
				if strings.HasPrefix(r, "PATCH") {
					t.Errorf("a reopening was sent: %s", r)
				}
			}
			answer := w.fake.Comments(n)[len(w.fake.Comments(n))-1].Body
			want := notice.Body(notice.Answer(lifecycle.DefaultCommandGone, w.srv.URL+"/"+w.fake.FullName(), n), notice.AnsweredMarker())
			if answer != want || !strings.Contains(answer, "pull/"+strconv.Itoa(n)+"/head") {
				t.Errorf("the answer:\n%s\nwant:\n%s", answer, want)
			}
			w.run(commandInputs)
			if w.notices(n, "answered") != 1 {
				t.Errorf("%d answers after the next run, want 1", w.notices(n, "answered"))
			}
		})
	}
}

// TestCommandOncePerClose: the same command answered twice (its event run
// again, an edit of the comment, the schedule after the event) or two
// commands: one answer, one reopening. Two runs at once leave one answer
// (the read-back of the scheduled run's comments deletes a copy).
func TestCommandOncePerClose(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.asked(alice)
	gone := w.asked(alice)
	w.fake.DeleteBranch(w.fake.MustIssue(gone).HeadRef)
	w.commandRun(nil, n, alice.Login)
	w.commandRun(nil, n, alice.Login) // the same event again
	w.commandRun(nil, gone, alice.Login)
	w.fake.Comment(gone, alice, w.now(), "/reopen") // asked again after the answer
	w.commandRun(nil, gone, alice.Login)
	for _, k := range []int{n, gone} {
		if got := w.notices(k, "answered"); got != 1 {
			t.Errorf("#%d: %d answers after its event runs, want 1", k, got)
		}
	}
	w.run(commandInputs)
	for _, k := range []int{n, gone} {
		if got := w.notices(k, "answered"); got != 1 {
			t.Errorf("#%d: %d answers, want 1", k, got)
		}
	}
	reopens := 0
	for _, r := range w.writesTo(n) {
		if strings.HasPrefix(r, "PATCH") {
			reopens++
		}
	}
	if reopens != 1 {
		t.Errorf("#%d reopened %d times, want once", n, reopens)
	}

	// Two runs at once, the event's and the schedule's, on a command just
	// made: the schedule leaves it to the event run, whose answer is the
	// one; the scheduled run after the grace finds it answered.
	w2 := turnWorld(t)
	m := w2.ourClosed(130, 3)
	w2.fake.Comment(m, alice, t0.Add(-time.Minute), "/reopen")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); w2.run(commandInputs) }()
	go func() { defer wg.Done(); w2.commandRun(nil, m, alice.Login) }()
	wg.Wait()
	w2.clock.Advance(2 * time.Hour)
	w2.run(commandInputs)
	if got := w2.notices(m, "answered"); got != 1 || w2.state(m) != "open" {
		t.Errorf("#%d after two runs at once: %s, %d answers; want open with one", m, w2.state(m), got)
	}
}

// TestCommandCounted: the job summary and the dashboard count the PRs
// reopened on command, and the closing comment names the command.
func TestCommandCounted(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.asked(alice)
	closing := w.markedPR(40)
	res := w.run(commandInputs)
	if !has(res.ReopenedOnCommand(), n) || !has(res.Closed(), closing) {
		t.Fatalf("reopened on command %v, closed %v; want #%d and #%d", numbers(res.ReopenedOnCommand()), numbers(res.Closed()), n, closing)
	}
	if s := report.Summary(res, w.fake.FullName()); !strings.Contains(s, "Reopened on command | 1") {
		t.Errorf("the summary does not count the reopen on command:\n%s", s)
	}
	if d := report.Dashboard(res); !strings.Contains(d, "Reopen commands, by the last run: reopened on command 1") {
		t.Errorf("the dashboard does not count the reopen on command:\n%s", d)
	}
	var closingComment string
	for _, c := range w.fake.Comments(closing) {
		if strings.Contains(c.Body, "<!-- stalepr:close") {
			closingComment = c.Body
		}
	}
	if !strings.Contains(closingComment, "Comment `/reopen` to reopen it") {
		t.Errorf("the closing comment does not name the command:\n%s", closingComment)
	}
	// With the command off, it says what will work instead.
	off := turnWorld(t)
	closing = off.markedPR(40)
	off.run(sfWith(commandInputs, "reopen-command", ""))
	if c := off.fake.Comments(closing); len(c) == 0 || !strings.Contains(c[len(c)-1].Body, "Ask a maintainer to reopen it, or open a new one") {
		t.Errorf("with the command off, the closing comment does not say to ask a maintainer: %v", c)
	}
}

// TestCommandScheduleLeavesAFreshOne: without an event run (no
// issue_comment trigger), a command younger than an hour is left to the
// run after: the scheduled run that comes then reopens it.
func TestCommandScheduleLeavesAFreshOne(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.ourClosed(130, 3)
	w.fake.Comment(n, alice, t0.Add(-time.Minute), "/reopen")
	w.run(commandInputs)
	if w.state(n) != "closed" || w.notices(n, "answered") != 0 {
		t.Fatalf("#%d: %s, %d answers; want the fresh command left to its event run", n, w.state(n), w.notices(n, "answered"))
	}
	w.clock.Advance(lifecycle.Day)
	if res := w.run(commandInputs); w.state(n) != "open" || w.notices(n, "answered") != 1 || !has(res.ReopenedOnCommand(), n) {
		t.Errorf("#%d the next day: %s, %d answers; want it reopened, answered once", n, w.state(n), w.notices(n, "answered"))
	}
}
