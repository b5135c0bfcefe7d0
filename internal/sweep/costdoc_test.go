package sweep_test

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/testenv"
)

// docs/cost.md's figures, and the README's cost sentences, are produced,
// not typed: each sentence or table row that states a measured figure is a
// claim below, its figures named {placeholders}, and TestCostDoc runs the
// measurements against the fake GitHub and fails when the doc says another
// figure. Requests, writes and points are deterministic (fixed seeds, the
// fake's clock), so they are checked exactly;
//
//	go test ./internal/sweep/ -run TestCostDoc -update
//	STALEPR_SLOW=1 go test ./internal/sweep/ -run TestCostDoc -update
//
// rewrite them (the second the rows of 10,000 PRs and more too, which only
// a slow run measures). Times and heaps depend on the machine: no test
// asserts them; BenchmarkRun rewrites its own (time_*, heap_*, txt_machine)
// when run with -update, and says where it measured them.

const (
	costPath   = "../../docs/cost.md"
	readmeCost = "../../README.md"
)

// claim is a sentence or a table row of a doc that states figures: its
// text, each figure a {name} of the measurement that gives it (txt_ names
// hold words, any other a number). Spaces in the text match any run of
// white space, so the doc's line breaks do not matter.
type claim struct {
	file, text string
}

// costClaims are the figures the docs state and where.
var costClaims = []claim{
	{readmeCost, "Beyond its writes, a daily run on 1,000 open PRs reads {lb1000_d1_reads} times, on 10,000 PRs {lb10000_d1_reads} times"},
	{readmeCost, "2,000 open PRs are {at2000_d1_points} points and {at2000_d1_rest} REST reads a quiet day"},

	{costPath, "2,000 open PRs cost {at2000_d1_points} points and {at2000_d1_rest} REST reads on a quiet day"},
	{costPath, "20,000 cost {at20000_d0_points} points and {at20000_d0_rest} REST reads on their first run"},
	{costPath, "reads at most {recipe_quiet_rest} REST reads and {recipe_quiet_points} points a quiet day"},
	{costPath, "a token refused the collaborator listing reads up to {recipe_nolisting_permission} accounts' permissions more a day"},
	{costPath, "under author-turn: {checksoff2000_d1_points} points a quiet day off, {checks2000_d1_points} on; {checksoff2000_d0_points} and {checks2000_d0_points} on the first run; {checksoff2000_d1_rest} (first run {checksoff2000_d0_rest}) REST reads either way"},
	{costPath, "with the nudge: the first run reads {nudge2000_d0_rest} REST requests and {nudge2000_d0_points} points with the listing, {nolisting2000_d0_rest} REST requests ({nolisting2000_d0_permission} permission reads) without it; a quiet day {nudge2000_d1_rest} REST requests and {nudge2000_d1_points} points; 20,000 open PRs in one run {nudge20000_d0_rest} REST requests and {nudge20000_d0_points} points"},
	{costPath, "4 in 5 of those inactive labelled by it, {switch2000_labelled} labelled in all), which marks {switch2000_marks} PRs and closes {switch2000_closes}, stalepr reads {switch2000_points} points and {switch2000_rest} REST requests where it reads {switch2000_theirs}: {switch2000_ratio}×, the {switch2000_fresh} fresh reads of its closes included, their facts at most {switch2000_age} s old"},
	{costPath, "(`TestSwitchDayReads`; 20,000 PRs: {switch20000_rest} REST requests and {switch20000_points} points, {switch20000_ratio}×)"},

	{costPath, "marks {backlog_marks} of them, with {backlog_req} requests ({backlog_writes} writes: label and notice each; {backlog_queries} GraphQL pages of 1 point; {backlog_rest} REST reads)"},
	{costPath, "Measured: 1,000 PRs {lb1000_d0_req} requests (LB {lb1000_d0_lb}), the day after {lb1000_d1_req} (LB {lb1000_d1_lb}); 10,000 PRs {lb10000_d0_req} (LB {lb10000_d0_lb}), the day after {lb10000_d1_req} (LB {lb10000_d1_lb}); 50,000 PRs {lb50000_d0_req} (LB {lb50000_d0_lb}), the day after {lb50000_d1_req} (LB {lb50000_d1_lb})"},
	{costPath, "The first screen's reads are the day-after runs: {lb1000_d1_req} requests of which {lb1000_d1_writes} are writes, and {lb10000_d1_req} of which {lb10000_d1_writes} are."},

	{costPath, "| 2,000 | author-turn | {at2000_d0_rest} REST reads, {at2000_d0_points} points ({at2000_d0_writes} writes) | {at2000_d1_rest} REST reads, {at2000_d1_points} points |"},
	{costPath, "| 20,000 | author-turn | {at20000_d0_rest} REST reads, {at20000_d0_points} points, every PR's turn known ({at20000_d0_writes} writes) | {at20000_d1_rest} REST reads, {at20000_d1_points} points |"},
	{costPath, "| 2,000 | author-turn, the nudge, 300 commenters | {nudge2000_d0_rest} REST reads, {nudge2000_d0_points} points ({nudge2000_d0_writes} writes) | {nudge2000_d1_rest} REST reads, {nudge2000_d1_points} points |"},
	{costPath, "| 2,000 | inactivity | {in2000_d0_rest} REST reads, {in2000_d0_points} points ({in2000_d0_writes} writes) | {in2000_d1_rest} REST reads, {in2000_d1_points} points |"},
	{costPath, "| 20,000 | inactivity | {in20000_d0_rest} REST reads, {in20000_d0_points} points ({in20000_d0_writes} writes) | {in20000_d1_rest} REST reads, {in20000_d1_points} points |"},
	{costPath, "| 2,000 | author-turn, CI on every PR, `author-turn-when-checks-fail` off | {checksoff2000_d0_rest} REST reads, {checksoff2000_d0_points} points ({checksoff2000_d0_writes} writes) | {checksoff2000_d1_rest} REST reads, {checksoff2000_d1_points} points |"},
	{costPath, "| 2,000 | the same, `author-turn-when-checks-fail: true` | {checks2000_d0_rest} REST reads, {checks2000_d0_points} points ({checks2000_d0_writes} writes) | {checks2000_d1_rest} REST reads, {checks2000_d1_points} points |"},
	{costPath, "| 20,000 | author-turn, CI on every PR, `author-turn-when-checks-fail` off | {checksoff20000_d0_rest} REST reads, {checksoff20000_d0_points} points ({checksoff20000_d0_writes} writes) | {checksoff20000_d1_rest} REST reads, {checksoff20000_d1_points} points |"},
	{costPath, "| 20,000 | the same, `author-turn-when-checks-fail: true` | {checks20000_d0_rest} REST reads, {checks20000_d0_points} points ({checks20000_d0_writes} writes) | {checks20000_d1_rest} REST reads, {checks20000_d1_points} points |"},
	{costPath, "| 2,000 | inactivity, the intake clock on, every author a member (none has) | {intakenone2000_d0_rest} REST reads, {intakenone2000_d0_points} points ({intakenone2000_d0_writes} writes) | {intakenone2000_d1_rest} REST reads, {intakenone2000_d1_points} points |"},
	{costPath, "| 2,000 | inactivity, the intake clock on | {intake2000_d0_rest} REST reads, {intake2000_d0_points} points ({intake2000_d0_writes} writes) | {intake2000_d1_rest} REST reads, {intake2000_d1_points} points |"},
	{costPath, "| 2,000 | the intake clock on, every PR a drive-by of the last 14 days | {intakeall2000_d0_rest} REST reads, {intakeall2000_d0_points} points ({intakeall2000_d0_writes} writes) | {intakeall2000_d1_rest} REST reads, {intakeall2000_d1_points} points |"},
	{costPath, "| 2,000 | inactivity, the switch day (`switch-day`: {switch2000_marks} marks, {switch2000_closes} closes, `write-interval: 1s`) | {switch2000_rest} REST reads, {switch2000_points} points; actions/stale reads {switch2000_theirs} ({switch2000_ratio}×); facts at most {switch2000_age} s old | |"},
	{costPath, "| 20,000 | the same ({switch20000_marks} marks, {switch20000_closes} closes) | {switch20000_rest} REST reads, {switch20000_points} points; actions/stale reads {switch20000_theirs} ({switch20000_ratio}×); facts at most {switch20000_age} s old | |"},
	{costPath, "and the first run's {checks20000_d0_morerest} more REST reads at 20,000 the read-back of their notices"},

	{costPath, "| 1,000 | 500 | {run1000_500_req} | {run1000_500_writes} | {run1000_500_queries} | {time_1000_500} s | {heap_1000_500} MiB |"},
	{costPath, "| 10,000 | 500 | {run10000_500_req} | {run10000_500_writes} | {run10000_500_queries} | {time_10000_500} s | {heap_10000_500} MiB |"},
	{costPath, "| 10,000 | unlimited | {lb10000_d0_req} | {lb10000_d0_writes} | {lb10000_d0_queries} | {time_10000_1000000} s | {heap_10000_1000000} MiB |"},
	{costPath, "| 50,000 | 500 | {run50000_500_req} | {run50000_500_writes} | {run50000_500_queries} | {time_50000_500} s | {heap_50000_500} MiB |"},
	{costPath, "| 50,000 | unlimited¹ | {lb50000_d0_req} | {lb50000_d0_writes} | {lb50000_d0_queries} | {time_50000_1000000} s | {heap_50000_1000000} MiB |"},
	{costPath, "times and peak heaps measured {txt_machine}."},
}

// placeholderRE finds a claim's {name}s.
var placeholderRE = regexp.MustCompile(`\{([a-z0-9_]+)\}`)

// re is the claim as a regular expression, each {name} a named group: a
// number (digits, thousands' commas, a decimal point), or, for a txt_
// name, the rest of the line up to the claim's last words.
func (c claim) re() *regexp.Regexp {
	var b strings.Builder
	at := 0
	for _, m := range placeholderRE.FindAllStringSubmatchIndex(c.text, -1) {
		b.WriteString(spaced(c.text[at:m[0]]))
		name := c.text[m[2]:m[3]]
		if strings.HasPrefix(name, "txt_") {
			fmt.Fprintf(&b, `(?P<%s>[^\n]*)`, name)
		} else {
			fmt.Fprintf(&b, `(?P<%s>[0-9](?:[0-9,.]*[0-9])?)`, name)
		}
		at = m[1]
	}
	b.WriteString(spaced(c.text[at:]))
	return regexp.MustCompile(b.String())
}

// spaced quotes s for a regular expression, a run of white space matching
// any run of white space.
func spaced(s string) string {
	var b strings.Builder
	for i, part := range regexp.MustCompile(`\s+`).Split(s, -1) {
		if i > 0 {
			b.WriteString(`\s+`)
		}
		b.WriteString(regexp.QuoteMeta(part))
	}
	return b.String()
}

// checkClaims compares each figure the claims state with got's (a figure
// got lacks is not checked) or, with update, writes got's into the docs.
// It returns how many figures it compared.
func checkClaims(tb testing.TB, claims []claim, got map[string]string, update bool) int {
	tb.Helper()
	compared := 0
	byFile := map[string][]claim{}
	var files []string
	for _, c := range claims {
		if byFile[c.file] == nil {
			files = append(files, c.file)
		}
		byFile[c.file] = append(byFile[c.file], c)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		text := string(b)
		type edit struct {
			start, end int
			val        string
		}
		var edits []edit
		for _, c := range byFile[file] {
			re := c.re()
			all := re.FindAllStringSubmatchIndex(text, -1)
			if len(all) != 1 {
				tb.Errorf("%s states %d times, want once: %q (reword the claim in costdoc_test.go with the doc)", file, len(all), c.text)
				continue
			}
			m := all[0]
			for i, name := range re.SubexpNames() {
				val, ok := got[name]
				if i == 0 || !ok {
					continue
				}
				compared++
				if said := text[m[2*i]:m[2*i+1]]; said != val {
					if update {
						edits = append(edits, edit{m[2*i], m[2*i+1], val})
						continue
					}
					tb.Errorf("%s says %s where the measurement gives %s ({%s} of %q); run\n"+
						"  go test ./internal/sweep/ -run TestCostDoc -update   (STALEPR_SLOW=1 for 10,000 PRs and more)\nand review the diff",
						file, said, val, name, c.text)
				}
			}
		}
		if len(edits) == 0 {
			continue
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
		for i, e := range edits {
			if i > 0 && edits[i-1].start == e.start {
				continue // the same figure claimed twice
			}
			text = text[:e.start] + e.val + text[e.end:]
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
		tb.Logf("rewrote %d figures of %s", len(edits), file)
	}
	return compared
}

// figures are measured figures by name, as the docs write them.
type figures struct {
	mu sync.Mutex
	m  map[string]string
}

// set records an int figure as the docs write it: thousands with commas.
func (f *figures) set(name string, v int) { f.setText(name, thousands(v)) }

func (f *figures) setText(name, v string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]string{}
	}
	f.m[name] = v
}

func (f *figures) get() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]string, len(f.m))
	for k, v := range f.m {
		out[k] = v
	}
	return out
}

// thousands writes n as the docs do: 2,980.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// readsFigures records a run's REST reads, points and writes as
// prefix_rest, prefix_points and prefix_writes.
func (f *figures) reads(prefix string, r reads) {
	f.set(prefix+"_rest", r.rest)
	f.set(prefix+"_points", r.points)
	f.set(prefix+"_writes", r.writes)
}

// costMeasurement is one measurement the docs' figures come from; slow
// ones (10,000 PRs and more) run only with STALEPR_SLOW=1.
type costMeasurement struct {
	name    string
	slow    bool
	measure func(t *testing.T, f *figures)
}

// costMeasurements are every measurement the claims name.
func costMeasurements() []costMeasurement {
	var out []costMeasurement
	for _, n := range []int{1000, 10000, 50000} {
		out = append(out,
			costMeasurement{fmt.Sprintf("lower bound, %d PRs", n), n > 1000, func(t *testing.T, f *figures) { lowerBoundFigures(t, f, n) }},
			costMeasurement{fmt.Sprintf("operations-per-run 500, %d PRs", n), n > 1000, func(t *testing.T, f *figures) {
				w := syntheticWorld(t, n)
				res := w.run(sfWith(costInputs, "operations-per-run", "500"))
				p := fmt.Sprintf("run%d_500", n)
				f.set(p+"_req", res.Requests)
				f.set(p+"_writes", res.Writes)
				f.set(p+"_queries", res.Queries)
			}})
	}
	for _, n := range []int{2000, 20000} {
		for _, clock := range readClocks {
			out = append(out, costMeasurement{fmt.Sprintf("%s, %d PRs", clock.name, n), n > 2000, func(t *testing.T, f *figures) {
				inputs, world := clock.setup()
				w := world(t, n)
				day0 := readsOf(w.run(inputs))
				w.clock.Advance(lifecycle.Day)
				day1 := readsOf(w.run(inputs))
				p := fmt.Sprintf("%s%d", clock.figure, n)
				f.reads(p+"_d0", day0)
				f.reads(p+"_d1", day1)
			}})
		}
		out = append(out, costMeasurement{fmt.Sprintf("switch day, %d PRs", n), n > 2000, func(t *testing.T, f *figures) {
			s := switchDay(t, openPRs(t, n))
			p := fmt.Sprintf("switch%d", n)
			f.set(p+"_rest", s.r.rest)
			f.set(p+"_points", s.r.points)
			f.set(p+"_theirs", s.theirs)
			f.setText(p+"_ratio", fmt.Sprintf("%.3f", float64(s.r.rest+s.r.points)/float64(s.theirs)))
			f.set(p+"_marks", len(s.res.Marked()))
			f.set(p+"_closes", len(s.res.Closed()))
			f.set(p+"_labelled", s.labelled)
			f.set(p+"_fresh", s.freshReads)
			f.set(p+"_age", int(oldest(s.ages).Seconds()))
		}})
	}
	out = append(out,
		costMeasurement{"a backlog under the default budget", false, func(t *testing.T, f *figures) {
			// TestMarksPerRunAsDocumented's backlog.
			w := newWorld(t)
			for i := 0; i < 1000; i++ {
				w.pr(float64(100 + i%300))
			}
			res := w.run(nil)
			f.set("backlog_marks", len(res.Marked()))
			f.set("backlog_req", res.Requests)
			f.set("backlog_writes", res.Writes)
			f.set("backlog_queries", res.Queries)
			f.set("backlog_rest", readsOf(res).rest)
		}},
		costMeasurement{"who may push, the listing refused", false, func(t *testing.T, f *figures) {
			w := contributorWorld(t, 2000)
			w.fake.SetCollaboratorsForbidden(true)
			res := w.run(contributorInputs)
			f.set("nolisting2000_d0_rest", readsOf(res).rest)
			f.set("nolisting2000_d0_permission", res.PermissionReads)
		}},
		costMeasurement{"the fair-mode recipe's quiet days", false, func(t *testing.T, f *figures) {
			q := recipeQuietDays(t, false)
			f.set("recipe_quiet_rest", q.rest)
			f.set("recipe_quiet_points", q.points)
		}},
		costMeasurement{"the fair-mode recipe's quiet days, the listing refused", false, func(t *testing.T, f *figures) {
			f.set("recipe_nolisting_permission", recipeQuietDays(t, true).permissions)
		}},
	)
	return out
}

// lowerBoundFigures runs n PRs' first run and the run a day later, budgets
// lifted, and records their requests, writes, queries and lower bounds
// (TestRequestsWithinLowerBound's LB).
func lowerBoundFigures(t *testing.T, f *figures, n int) {
	w := syntheticWorld(t, n)
	for day := 0; day < 2; day++ {
		before, comments := snapshot(w.fake)
		w.fake.Reset()
		res := w.run(costInputs)
		reqs := w.fake.Count()
		lb, _ := lowerBound(before, comments, changedPRs(res), w.fake.Writes(), 90, 30, res.Now)
		p := fmt.Sprintf("lb%d_d%d", n, day)
		f.set(p+"_req", reqs)
		f.set(p+"_lb", lb)
		f.set(p+"_writes", res.Writes)
		f.set(p+"_queries", res.Queries)
		f.set(p+"_reads", reqs-res.Writes)
		w.clock.Advance(lifecycle.Day)
	}
}

// TestCostDoc: every figure docs/cost.md and the README's cost sentences
// state is what the measurement gives (see costClaims); with -update it
// writes the measured figures into the docs.
func TestCostDoc(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	var f figures
	t.Run("measure", func(t *testing.T) {
		for _, m := range costMeasurements() {
			t.Run(m.name, func(t *testing.T) {
				t.Parallel()
				if m.slow && !testenv.SlowEnabled() {
					t.Skip("10,000 PRs and more: measured with STALEPR_SLOW=1")
				}
				m.measure(t, &f)
			})
		}
	})
	if t.Failed() {
		return
	}
	got := f.get()
	if a, b := got["checks20000_d0_rest"], got["checksoff20000_d0_rest"]; a != "" && b != "" {
		x, _ := strconv.Atoi(strings.ReplaceAll(a, ",", ""))
		y, _ := strconv.Atoi(strings.ReplaceAll(b, ",", ""))
		got["checks20000_d0_morerest"] = thousands(x - y)
	}
	// "2 REST reads either way": with the input on as off.
	for _, d := range []string{"d0", "d1"} {
		if on, off := got["checks2000_"+d+"_rest"], got["checksoff2000_"+d+"_rest"]; on != off {
			t.Errorf("author-turn-when-checks-fail: %s REST reads on, %s off, on %s; cost.md says they are the same", on, off, d)
		}
	}
	if testenv.SlowEnabled() {
		for _, c := range costClaims {
			for _, m := range placeholderRE.FindAllStringSubmatch(c.text, -1) {
				if _, ok := got[m[1]]; !ok && !strings.HasPrefix(m[1], "time_") && !strings.HasPrefix(m[1], "heap_") && m[1] != "txt_machine" {
					t.Errorf("no measurement gives {%s} (%s: %q)", m[1], c.file, c.text)
				}
			}
		}
	}
	n := checkClaims(t, costClaims, got, testenv.Update())
	t.Logf("%d figures checked against %d measured", n, len(got))
}
