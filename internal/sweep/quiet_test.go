package sweep_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// Quiet periods end to end through the HTTP path (README: "The rules",
// quiet periods): one repository replayed day by day twice, without and
// with quiet-periods, from the fake's own records.

// The freeze: 18 UTC days, days 21 to 38 of the replay (day 0 is t0,
// 2026-11-29).
const (
	freeze      = "2026-12-20..2027-01-06"
	freezeFirst = 21
	freezeDays  = 18
)

var (
	freezeStart = time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC)
	freezeEnd   = time.Date(2027, 1, 7, 0, 0, 0, 0, time.UTC)
)

// freezeWorld is the repository both replays start from, and what people
// do in it on given days (the same calendar in both).
type freezeWorld struct {
	*world
	a, b, c, revived, late, handMarked, nudged, straddle, lateNudge int
}

func newFreezeWorld(t *testing.T) *freezeWorld {
	w := &freezeWorld{world: turnWorld(t)}
	f := w.fake
	at9 := func(d float64) time.Time { return daysAgo(d + 0.125) } // 09:00, d days before t0
	// On their authors' turn since a maintainer's comment, last active
	// then: never nudged.
	onAuthor := func(opened, last float64) int {
		n := w.openPR(opened, alice)
		f.Comment(n, maint, at9(last), "please rebase")
		return n
	}
	// a: marked on day 11; its close, due on day 21, falls in the freeze.
	w.a = onAuthor(40, 19)
	// b: its mark falls due in the freeze (day 26).
	w.b = onAuthor(40, 4)
	// c: marked and closed before the freeze: nothing moves.
	w.c = onAuthor(60, 35)
	// revived: marked on day 16, its author comments in the freeze.
	w.revived = onAuthor(40, 14)
	// late: its mark falls due at 18:00 on the eve of the freeze, after
	// that day's run: the next run, in the freeze, holds it.
	w.late = w.openPR(40, alice)
	f.Comment(w.late, maint, daysAgo(9.75), "please rebase")
	// handMarked: a maintainer labels it stale at 18:00 on day 10, so its
	// close falls due at 18:00 on the eve of the freeze: held.
	w.handMarked = onAuthor(40, 5)
	// nudged: on the reviewers' turn since day -3: nudged on day 4.
	w.nudged = w.openPR(3.125, alice)
	f.RequestReview(w.nudged, alice, at9(3), "rey")
	// straddle: on the author's turn until its push on day 16; its nudge,
	// due on day 23, falls in the freeze.
	w.straddle = w.openPR(9, alice)
	f.Comment(w.straddle, maint, at9(8), "please add a test")
	// lateNudge: back on the reviewers' turn at 18:00 on day 13, so its
	// nudge falls due at 18:00 on the eve of the freeze: held.
	w.lateNudge = w.openPR(9, alice)
	f.Comment(w.lateNudge, maint, at9(8), "please add a test")
	return w
}

// daily is what people do before the run of a day.
func (w *freezeWorld) daily(day int) {
	at := w.now().Add(-3 * time.Hour)
	switch day {
	case 11:
		w.fake.Label(w.handMarked, maint, at.Add(-15*time.Hour), "stale")
	case 14:
		w.fake.Push(w.lateNudge, "alice", at.Add(-15*time.Hour), "add the test")
	case 16:
		w.fake.Push(w.straddle, "alice", at, "add the test")
	case 23:
		w.fake.Comment(w.revived, alice, at, "still on it, after the holidays")
	}
}

// freezeEvent is one write a run made to a PR, seen from the fake.
type freezeEvent struct {
	pr   int
	kind string // mark, close, unstale, nudge
	day  int
}

func (e freezeEvent) String() string { return fmt.Sprintf("#%d %s@%d", e.pr, e.kind, e.day) }

// replay runs once a day, at 12:00, from day 0 to last, and returns what
// the runs did, from the fake's records.
func (w *freezeWorld) replay(t *testing.T, last int, inputs map[string]string, each func(day int, res sweep.Result, log *nopLog)) []freezeEvent {
	t.Helper()
	var events []freezeEvent
	for day := 0; day <= last; day++ {
		w.clock.Set(t0.Add(time.Duration(day) * lifecycle.Day))
		w.daily(day)
		before := readReplayed(w.world)
		log := &nopLog{}
		res := w.runLog(inputs, log)
		if !res.OK() || res.Stopped != nil {
			t.Fatalf("day %d: stopped %v, failed %+v", day, res.Stopped, res.Failed())
		}
		if each != nil {
			each(day, res, log)
		}
		for n, kinds := range happened(before, readReplayed(w.world)) {
			for _, k := range kinds {
				events = append(events, freezeEvent{n, k, day})
			}
		}
	}
	slices.SortFunc(events, func(x, y freezeEvent) int { return strings.Compare(x.String(), y.String()) })
	return events
}

var freezeInputs = map[string]string{"days-before-stale": "30", "days-before-close": "10", "days-before-review-nudge": "7"}

func withQuiet(in map[string]string, periods string) map[string]string {
	out := map[string]string{"quiet-periods": periods}
	for k, v := range in {
		out[k] = v
	}
	return out
}

// TestQuietFreeze: over daily runs across a quiet period nothing is
// marked, closed or nudged inside it, un-stales go on, and every mark,
// close and nudge falls exactly the paused days later than without it:
// the 18 days for a clock that started before the period, the days left
// of it for one that started inside (the revived PR's new mark).
func TestQuietFreeze(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	const controlDays = 60
	control := newFreezeWorld(t)
	plain := control.replay(t, controlDays, freezeInputs, nil)

	w := newFreezeWorld(t)
	quiet := withQuiet(freezeInputs, freeze)
	got := w.replay(t, controlDays+freezeDays, quiet, checkQuietRun(t))

	want := shiftedControl(plain, control.revived)
	gotShifted := slices.DeleteFunc(slices.Clone(got), func(e freezeEvent) bool { return e.pr == w.revived && e.day > 23 })
	if fmt.Sprint(gotShifted) != fmt.Sprint(want) {
		t.Errorf("with the quiet period:\n got %v\nwant %v (without it: %v)", gotShifted, want, plain)
	}
	// Each kind of case is there: a close due in the period, a mark due
	// in it, a nudge due in it, and the un-stale inside it.
	for _, e := range []freezeEvent{{w.a, "close", 21 + freezeDays}, {w.b, "mark", 26 + freezeDays},
		{w.straddle, "nudge", 23 + freezeDays}, {w.revived, "unstale", 23}, {w.late, "mark", freezeFirst + freezeDays},
		{w.lateNudge, "nudge", freezeFirst + freezeDays}, {w.handMarked, "close", freezeFirst + freezeDays}, {w.c, "close", 10}, {w.nudged, "nudge", 4}} {
		if !slices.Contains(got, e) {
			t.Errorf("missing %v in %v", e, got)
		}
	}
	// The revived PR: its author's comment on day 23 (09:00) hands it to
	// the reviewers, nudged 7 days on: day 30 without the period; with it
	// the clock starts at the period's end, 2027-01-07 (day 39), so day
	// 46, and the mark 30 days after the nudge, on the run after: day 77.
	if !slices.Contains(plain, freezeEvent{control.revived, "nudge", 30}) {
		t.Errorf("revived PR without the period: no nudge@30 in %v", plain)
	}
	for _, e := range []freezeEvent{{w.revived, "nudge", 46}, {w.revived, "mark", 77}} {
		if !slices.Contains(got, e) {
			t.Errorf("revived PR: missing %v in %v", e, got)
		}
	}

	checkNothingInside(t, w.world)
}

// checkQuietRun checks what a run says of the quiet period: inside it,
// that it is in one until its end (result and log) and that nothing falls
// due before that end; outside it, nothing.
func checkQuietRun(t *testing.T) func(day int, res sweep.Result, log *nopLog) {
	return func(day int, res sweep.Result, log *nopLog) {
		inside := day >= freezeFirst && day < freezeFirst+freezeDays
		if inside != !res.QuietUntil.IsZero() || inside && !res.QuietUntil.Equal(freezeEnd) {
			t.Errorf("day %d: QuietUntil %v", day, res.QuietUntil)
		}
		if !inside {
			return
		}
		if res.QuietHeld != 2 { // late's mark and handMarked's close, due on the period's eve
			t.Errorf("day %d: %d marks and closes held, want 2", day, res.QuietHeld)
		}
		if !slices.ContainsFunc(log.printed, func(l string) bool { return strings.Contains(l, "quiet period (quiet-periods) until 2027-01-07") }) {
			t.Errorf("day %d: the log does not say the run is in a quiet period: %q", day, log.printed)
		}
		for _, it := range res.Stale() {
			if !it.CloseAt.IsZero() && it.CloseAt.Before(freezeEnd) {
				t.Errorf("day %d: #%d still stale, closes %v, inside the quiet period", day, it.Number, it.CloseAt)
			}
		}
		for _, it := range res.Queue {
			for _, due := range []time.Time{it.Due, it.NudgeDue} {
				if !due.IsZero() && due.Before(freezeEnd) {
					t.Errorf("day %d: #%d due %v, inside the quiet period", day, it.Number, due)
				}
			}
		}
	}
}

// shiftedControl is what the replay without the period did, each write
// from the period's first day on 18 days later: an un-stale follows a
// person, not a clock, and stays. The revived PR's events after its
// un-stale are left out: its new clock starts inside the period.
func shiftedControl(plain []freezeEvent, revived int) []freezeEvent {
	var want []freezeEvent
	for _, e := range plain {
		switch {
		case e.pr == revived && e.day > 23:
			continue
		case e.day >= freezeFirst && e.kind != "unstale":
			e.day += freezeDays
		}
		want = append(want, e)
	}
	slices.SortFunc(want, func(x, y freezeEvent) int { return strings.Compare(x.String(), y.String()) })
	return want
}

// checkNothingInside checks the fake's own records: no comment, stale
// label or close of ours inside the period.
func checkNothingInside(t *testing.T, w *world) {
	t.Helper()
	inside := func(at time.Time) bool { return !at.Before(freezeStart) && at.Before(freezeEnd) }
	for _, is := range w.fake.Issues() {
		for _, c := range w.fake.Comments(is.Number) {
			if c.User.Login == action.Login && inside(c.CreatedAt) {
				t.Errorf("#%d: comment posted in the quiet period at %v: %q", is.Number, c.CreatedAt, c.Body)
			}
		}
		for _, e := range w.fake.Events(is.Number) {
			if inside(e.At) && (e.Type == fakegithub.EventLabeled && e.Actor.Login == action.Login || e.Type == fakegithub.EventClosed) {
				t.Errorf("#%d: %s %s in the quiet period at %v", is.Number, e.Type, e.Label, e.At)
			}
		}
	}
}

// TestQuietFreezeDates: the stale notice's close date and the queue's
// dates (the summary's next 14 days, the dashboard) are the shifted ones,
// from a run before the period.
func TestQuietFreezeDates(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // two 11-day replays; the shifted dates are lifecycle's TestQuiet* in -short
	queues := map[string]map[int]sweep.QueueItem{}
	notices := map[string]string{}
	for name, in := range map[string]map[string]string{"plain": freezeInputs, "quiet": withQuiet(freezeInputs, freeze)} {
		w := newFreezeWorld(t)
		w.replay(t, 11, in, func(day int, res sweep.Result, _ *nopLog) {
			if day != 0 {
				return
			}
			queues[name] = map[int]sweep.QueueItem{}
			for _, it := range res.Queue {
				queues[name][it.Number] = it
			}
		})
		for _, c := range w.fake.Comments(w.a) {
			if strings.Contains(c.Body, "<!-- stalepr:stale") {
				notices[name] = c.Body
			}
		}
	}
	// a was marked on day 11 (2026-12-10): closed 10 days on, 18 later.
	if !strings.Contains(notices["plain"], "closed on 2026-12-20") || !strings.Contains(notices["quiet"], "closed on 2027-01-07") {
		t.Errorf("stale notice of a: want closed on 2026-12-20 without the period, 2027-01-07 with it:\n%s\n---\n%s", notices["plain"], notices["quiet"])
	}
	if len(queues["plain"]) == 0 || len(queues["plain"]) != len(queues["quiet"]) {
		t.Fatalf("queues: %d and %d PRs", len(queues["plain"]), len(queues["quiet"]))
	}
	shift := func(due time.Time) time.Time {
		if due.IsZero() || due.Before(freezeStart) {
			return due
		}
		return due.Add(freezeDays * lifecycle.Day)
	}
	moved := 0
	for n, p := range queues["plain"] {
		q := queues["quiet"][n]
		if !q.Due.Equal(shift(p.Due)) || !q.NudgeDue.Equal(shift(p.NudgeDue)) {
			t.Errorf("#%d: due %v, nudge due %v; want %v and %v (without the period: %v, %v)",
				n, q.Due, q.NudgeDue, shift(p.Due), shift(p.NudgeDue), p.Due, p.NudgeDue)
		}
		if !q.Due.Equal(p.Due) {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no date moved: the fixture tests nothing")
	}
}
