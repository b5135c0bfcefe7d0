package sweep_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// Every dated forecast comes true: a synthetic repository is
// replayed day by day with nobody but stalepr acting, and every mark, close
// and nudge a run's queue dates within 14 days must happen on the first run
// at or after its date; every one that happens must have been dated by the
// run before. The queue's dates are what the job summary's "Next 14 days"
// and the dashboard issue print; each day's summary is checked to count
// them as the queue has them.

// forecastHorizon is how far ahead the queue views date what comes.
const forecastHorizon = 14 * lifecycle.Day

// forecast is one dated step a run's queue announced.
type forecast struct {
	pr   int
	kind string // mark, close, nudge, escalate
	at   time.Time
	day  int // the run that said it
	// earliest: a nudge or an escalation of a run that paced them
	// (review-nudges-per-run, escalations-per-run), whose date is the
	// earliest it comes, as the summary says.
	earliest bool
}

func (f forecast) String() string {
	return fmt.Sprintf("#%d %s on %s (said on day %d)", f.pr, f.kind, f.at.Format("2006-01-02 15:04"), f.day)
}

// forecasts are the dated steps of a run's queue within the horizon.
func forecasts(res sweep.Result, now time.Time, day int) []forecast {
	var out []forecast
	add := func(n int, kind string, at time.Time) {
		if !at.IsZero() && !at.After(now.Add(forecastHorizon)) {
			out = append(out, forecast{pr: n, kind: kind, at: at, day: day})
		}
	}
	for _, it := range res.Queue {
		switch it.State {
		case sweep.QueueFresh, sweep.QueueRevived:
			add(it.Number, "mark", it.Due)
		case sweep.QueueStale:
			add(it.Number, "close", it.Due)
		}
		add(it.Number, "nudge", it.NudgeDue)
		if n := len(out); n > 0 && out[n-1].kind == "nudge" && out[n-1].pr == it.Number {
			out[n-1].earliest = res.NudgesPaced > 0
		}
		if !it.Escalate { // nobody to ask: nothing is posted
			add(it.Number, "escalate", it.EscalationDue)
			if n := len(out); n > 0 && out[n-1].kind == "escalate" && out[n-1].pr == it.Number {
				out[n-1].earliest = res.EscalationsPaced > 0
			}
		}
	}
	return out
}

// replayWorld is a synthetic queue of n items with the turns of a real
// project's reviews on top: changes requested, review requests, approvals,
// the author's answers, dated over the last 40 days so that turns pass to
// the author and fall due inside the replay.
func replayWorld(t *testing.T, n int, seed uint64) *world {
	w := newWorld(t)
	f := w.fake
	f.AddSynthetic(n, int64(seed))
	rng := rand.New(rand.NewPCG(seed, 31))
	at := func(lo, hi int) time.Time {
		return t0.Add(-time.Duration(lo)*lifecycle.Day - time.Duration(rng.IntN((hi-lo)*24*60))*time.Minute)
	}
	for _, is := range f.Issues() {
		if !is.IsPR || is.State != "open" || is.HasLabel("stale") || rng.IntN(100) >= 40 {
			continue
		}
		author := fakegithub.User{Login: is.User.Login, Type: is.User.Type}
		maint := fakegithub.Person("maint" + fmt.Sprint(1+rng.IntN(12)))
		first := at(20, 60)
		if first.Before(is.CreatedAt) {
			continue
		}
		switch rng.IntN(5) {
		case 0: // a maintainer asks for changes: the author's turn since the review
			f.Review(is.Number, maint, first, "CHANGES_REQUESTED", "please split this")
		case 1: // review requested: the reviewers' turn
			f.RequestReview(is.Number, author, first, maint.Login)
		case 2: // approved: waiting to be merged
			f.Review(is.Number, maint, first, "APPROVED", "")
		case 3: // changes requested, answered by a push: the reviewers' turn again
			f.Review(is.Number, maint, first, "CHANGES_REQUESTED", "please add a test")
			f.Push(is.Number, author.Login, first.Add(time.Duration(1+rng.IntN(72))*time.Hour), "add the test")
		default: // a maintainer's question in a comment
			f.Comment(is.Number, maint, first, "Could you rebase?")
		}
	}
	return w
}

// replayed is what the fake shows of a PR after a run.
type replayed struct {
	open, stale                        bool
	marks, closes, nudges, escalations int
}

func readReplayed(w *world) map[int]replayed {
	out := map[int]replayed{}
	for _, is := range w.fake.Issues() {
		if !is.IsPR {
			continue
		}
		r := replayed{open: is.State == "open", stale: is.HasLabel("stale")}
		for _, c := range w.fake.Comments(is.Number) {
			switch {
			case strings.Contains(c.Body, "<!-- stalepr:stale"):
				r.marks++
			case strings.Contains(c.Body, "<!-- stalepr:close"):
				r.closes++
			case strings.Contains(c.Body, "<!-- stalepr:nudge"):
				r.nudges++
			case strings.Contains(c.Body, "<!-- stalepr:escalated"):
				r.escalations++
			}
		}
		out[is.Number] = r
	}
	return out
}

// happened is what a run did to each PR, from the fake.
func happened(before, after map[int]replayed) map[int][]string {
	out := map[int][]string{}
	for n, a := range after {
		b := before[n]
		if !b.stale && a.stale || a.marks > b.marks {
			out[n] = append(out[n], "mark")
		}
		if b.open && !a.open {
			out[n] = append(out[n], "close")
		}
		if b.stale && !a.stale && a.open {
			out[n] = append(out[n], "unstale")
		}
		if a.nudges > b.nudges {
			out[n] = append(out[n], "nudge")
		}
		if a.escalations > b.escalations {
			out[n] = append(out[n], "escalate")
		}
	}
	return out
}

// replayForecasts runs once a day at 12:00 for days days and checks the
// runs' forecasts against what the runs did.
func replayForecasts(t *testing.T, w *world, inputs map[string]string, days int) (checked int) {
	t.Helper()
	var said []forecast               // every forecast within the horizon, in the order said
	did := map[int]map[string][]int{} // PR -> kind -> days it happened
	var previous []forecast
	for day := 0; day <= days; day++ {
		now := t0.Add(time.Duration(day) * lifecycle.Day)
		w.clock.Set(now)
		before := readReplayed(w)
		res := w.run(inputs)
		if !res.OK() || res.Stopped != nil {
			t.Fatalf("day %d: stopped %v, failed %+v", day, res.Stopped, res.Failed())
		}
		events := happened(before, readReplayed(w))
		for n, kinds := range events {
			for _, k := range kinds {
				if did[n] == nil {
					did[n] = map[string][]int{}
				}
				did[n][k] = append(did[n][k], day)
			}
		}
		// Nothing happens that the run before did not announce for today.
		if day > 0 {
			for n, kinds := range events {
				for _, k := range kinds {
					if k == "unstale" {
						t.Errorf("day %d: #%d un-staled with nobody acting", day, n)
						continue
					}
					if !announced(previous, n, k, now) {
						t.Errorf("day %d: #%d %s, which the run of day %d did not date for today", day, n, k, day-1)
					}
				}
			}
		}
		// A run that did not stop leaves nothing overdue, but the nudges
		// and escalations review-nudges-per-run and escalations-per-run
		// pace (it says how many).
		previous = forecasts(res, now, day)
		for _, f := range previous {
			if f.earliest {
				continue
			}
			if !f.at.After(now) && day > 0 {
				t.Errorf("day %d: %v: dated in the past by a run that did not stop", day, f)
			}
		}
		said = append(said, previous...)
		checkNextDays(t, day, report.Summary(res, w.fake.FullName()), previous, now)
	}
	// Each forecast comes true on the first run at or after its date,
	// unless stalepr wrote to the PR before (its own write moves the clock:
	// the runs after say the new date).
	last := t0.Add(time.Duration(days) * lifecycle.Day)
	var missed []string
	seen := map[string]bool{} // a forecast said again on later days is one miss
	for _, f := range said {
		if f.at.After(last) || !f.at.After(t0.Add(time.Duration(f.day)*lifecycle.Day)) {
			continue // beyond the replay, or already due when said (checked above)
		}
		due := int((f.at.Sub(t0) + lifecycle.Day - 1) / lifecycle.Day)
		if wroteBetween(did[f.pr], f.day, due) {
			continue
		}
		checked++
		key := fmt.Sprint(f.pr, f.kind, f.at)
		came := slices.Contains(did[f.pr][f.kind], due)
		if f.earliest {
			came = slices.ContainsFunc(did[f.pr][f.kind], func(d int) bool { return d >= due })
		}
		if !came && !seen[key] {
			seen[key] = true
			missed = append(missed, fmt.Sprintf("%v: happened on days %v", f, did[f.pr]))
		}
	}
	sort.Strings(missed)
	if len(missed) > 0 {
		t.Errorf("%d of %d forecasts did not come true:\n%s", len(missed), checked, strings.Join(missed, "\n"))
	}
	return checked
}

// announced reports whether a forecast dated n's step kind at or before now.
func announced(fs []forecast, n int, kind string, now time.Time) bool {
	for _, f := range fs {
		if f.pr == n && f.kind == kind && !f.at.After(now) {
			return true
		}
	}
	return false
}

// wroteBetween reports whether stalepr wrote to the PR after the run of day
// from and before the run of day due.
func wroteBetween(did map[string][]int, from, due int) bool {
	for _, days := range did {
		for _, d := range days {
			if d > from && d < due {
				return true
			}
		}
	}
	return false
}

func TestForecastsComeTrue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		inputs map[string]string
	}{
		{"inactivity", map[string]string{"days-before-stale": "30", "days-before-close": "10", "dashboard-issue": "Queue"}},
		{"inactivity, people, nudge", map[string]string{"days-before-stale": "30", "days-before-close": "10",
			"activity-from": "people", "days-before-review-nudge": "7", "dashboard-issue": "Queue"}},
		{"inactivity, people", map[string]string{"days-before-stale": "30", "days-before-close": "10", "activity-from": "people"}},
		{"author-turn", map[string]string{"stale-clock": "author-turn", "days-before-stale": "21", "days-before-close": "7",
			"days-before-review-nudge": "7", "dashboard-issue": "Queue"}},
		{"author-turn, escalation", map[string]string{"stale-clock": "author-turn", "days-before-stale": "21", "days-before-close": "7",
			"days-before-review-nudge": "7", "days-before-review-escalation": "5", "escalation-reviewers": "lead", "escalations-per-run": "100"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testenv.Long(t) // a month's replay: the long tests', as the quiet freezes'
			days, n := 30, 420
			w := replayWorld(t, n, 31)
			for k, v := range map[string]string{"write-interval": "0s", "operations-per-run": "100000"} {
				tc.inputs[k] = v
			}
			if checked := replayForecasts(t, w, tc.inputs, days); checked < 50 {
				t.Errorf("only %d forecasts checked: the replay proves little", checked)
			}
		})
	}
}

// checkNextDays checks the job summary's next 14 days against the queue's
// forecasts: each date's count of closes, marks, nudges and escalations is the number of
// forecasts on that day (those already due on the first row, due now).
func checkNextDays(t *testing.T, day int, summary string, fs []forecast, now time.Time) {
	t.Helper()
	today := now.UTC().Truncate(lifecycle.Day)
	want := map[string]int{} // "2026-12-01 mark" -> count
	for _, f := range fs {
		if !f.at.Before(today.Add(forecastHorizon)) {
			continue // the table's 14 dates are today's and the 13 after
		}
		date := f.at.UTC().Truncate(lifecycle.Day).Format(time.DateOnly)
		if f.at.Before(now) {
			date = "due now" // already due: the first row, apart from what falls due later today
		}
		want[date+" "+f.kind]++
	}
	got := map[string]int{}
	kinds := map[string]string{"Closes": "close", "Marks": "mark", "Nudges": "nudge", "Escalations": "escalate"}
	var columns []string // the table's kinds, in its order
	if h := regexp.MustCompile(`(?m)^\| Date \| (.+) \|$`).FindStringSubmatch(summary); h != nil {
		for _, name := range strings.Split(h[1], " | ") {
			columns = append(columns, kinds[name])
		}
	}
	row := regexp.MustCompile(`(?m)^\| (due now|\d{4}\x{2011}\d\d\x{2011}\d\d) \| (.+) \|$`)
	count := regexp.MustCompile(`^(\d+):`)
	for _, m := range row.FindAllStringSubmatch(summary, -1) {
		date := strings.ReplaceAll(m[1], "\u2011", "-")
		for i, cell := range strings.Split(m[2], " | ") {
			if c := count.FindStringSubmatch(cell); c != nil && i < len(columns) {
				n, _ := strconv.Atoi(c[1])
				got[date+" "+columns[i]] = n
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(maps.Collect(func(yield func(string, int) bool) {
		for k, v := range got {
			yield(k, v)
		}
		for k, v := range want {
			yield(k, v)
		}
	}))) {
		if got[k] != want[k] {
			t.Errorf("day %d: the summary's next 14 days count %d on %s, the queue's forecasts %d", day, got[k], k, want[k])
		}
	}
}
