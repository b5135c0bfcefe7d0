package sweep_test

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// "Fair to contributors" (README): activity-from, exempt-awaiting-review,
// templated messages and label hygiene, through the real HTTP path.

var labeler = fakegithub.Bot("labeler[bot]")

// sized gives a PR the label the labeller bot keeps re-applying.
func sized(is *fakegithub.Issue) { is.Labels = append(is.Labels, "size/M") }

// relabelDaily has the labeller bot take its label off and put it back on
// every day of the last days days, as a labeller workflow run daily does:
// updated_at ends up about a day old.
func (w *world) relabelDaily(n, days int) {
	w.t.Helper()
	for d := days; d >= 1; d-- {
		at := daysAgo(float64(d))
		w.fake.Unlabel(n, labeler, at, "size/M")
		w.fake.Label(n, labeler, at.Add(time.Minute), "size/M")
	}
}

// openPages counts the GraphQL pages of the open listings.
func (w *world) openPages() int {
	n := 0
	for _, r := range w.fake.Requests() {
		if r.Route == "POST /graphql" && strings.Contains(r.Body, `"states":["OPEN"]`) {
			n++
		}
	}
	return n
}

// historyReads counts the GraphQL reads of one PR's older history (a page
// of the listing carries every PR's latest 100 events).
func (w *world) historyReads() int {
	n := 0
	for _, r := range w.fake.Requests() {
		if r.Route == "POST /graphql" && strings.Contains(r.Body, "pullRequest(number:") {
			n++
		}
	}
	return n
}

// openBetween counts the open, non-stale PRs created before cutoff and
// updated at or after it: the ones activity-from: people must read.
func (w *world) openBetween(cutoff time.Time) int {
	c := 0
	for _, is := range w.fake.Issues() {
		if is.IsPR && is.State == "open" && !is.HasLabel("stale") &&
			is.CreatedAt.Before(cutoff) && !is.UpdatedAt.Before(cutoff) {
			c++
		}
	}
	return c
}

func reasonOf(items []sweep.Item, n int) (lifecycle.Reason, bool) {
	for _, it := range items {
		if it.Number == n {
			return it.Reason, true
		}
	}
	return "", false
}

// ---- 1. activity-from: people ----

type peopleCase struct {
	name      string
	mod       []func(*fakegithub.Issue)
	act       func(w *world, n int)
	relabel   bool
	people    bool // marked under activity-from: people
	anyoneToo bool // marked under activity-from: anyone
}

var peopleCases = []peopleCase{
	{name: "nobody but the bot", relabel: true, people: true},
	{name: "person commented 120 days ago", relabel: true, people: true,
		act: func(w *world, n int) { w.fake.Comment(n, bob, daysAgo(120), "any news?") }},
	{name: "bot commented recently", relabel: true, people: true,
		act: func(w *world, n int) { w.fake.Comment(n, ci, daysAgo(3), "coverage 80%") }},
	{name: "bot renamed recently", relabel: true, people: true,
		act: func(w *world, n int) { w.fake.Rename(n, ci, daysAgo(3), "chore: bump deps") }},
	{name: "person comments", relabel: true,
		act: func(w *world, n int) { w.fake.Comment(n, bob, daysAgo(5), "still on it") }},
	{name: "person reviews", relabel: true,
		act: func(w *world, n int) { w.fake.Review(n, maint, daysAgo(5), "CHANGES_REQUESTED", "one more thing") }},
	{name: "push", relabel: true,
		act: func(w *world, n int) { w.fake.Push(n, "alice", daysAgo(5), "address review") }},
	{name: "title edit by a person", relabel: true,
		act: func(w *world, n int) { w.fake.Rename(n, alice, daysAgo(5), "feat: better title") }},
	{name: "ready for review", relabel: true,
		mod: []func(*fakegithub.Issue){func(is *fakegithub.Issue) { is.Draft = true }},
		act: func(w *world, n int) { w.fake.ReadyForReview(n, alice, daysAgo(5)) }},
	{name: "label change by a person", relabel: true,
		act: func(w *world, n int) { w.fake.Label(n, maint, daysAgo(5), "needs-review") }},
	// Controls: no bot involved; updated_at alone decides under both modes.
	{name: "untouched for 120 days", people: true, anyoneToo: true},
}

// buildPeople adds one PR per case, inactive 120 days as far as the listing
// knows before the bot and the case act, plus a young relabelled PR.
func buildPeople(w *world) (prs []int, young int) {
	for _, tc := range peopleCases {
		mods := append([]func(*fakegithub.Issue){sized}, tc.mod...)
		n := w.pr(120, mods...)
		if tc.act != nil {
			tc.act(w, n)
		}
		if tc.relabel {
			w.relabelDaily(n, 14)
		}
		prs = append(prs, n)
	}
	// Created 30 days ago: too young to be stale whoever acted.
	young = w.fake.AddPR(fakegithub.Issue{Title: "young", User: alice, CreatedAt: daysAgo(30), UpdatedAt: daysAgo(30), Labels: []string{"size/M"}})
	w.relabelDaily(young, 14)
	return prs, young
}

func TestFairActivityFromPeople(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	prs, young := buildPeople(w)
	cutoff := daysAgo(90)
	wantReads := w.openBetween(cutoff)
	if wantReads != len(prs)-1 { // every relabelled case; not the control, not the young one
		t.Fatalf("setup: %d PRs between created and updated, want %d", wantReads, len(prs)-1)
	}
	w.fake.Reset()
	res := w.run(map[string]string{"activity-from": "people"})
	for i, tc := range peopleCases {
		n := prs[i]
		if got := w.hasLabel(n, "stale"); got != tc.people {
			t.Errorf("%s (#%d, updated %s): marked = %v, want %v; labels %v", tc.name, n,
				w.fake.MustIssue(n).UpdatedAt.Format(time.DateOnly), got, tc.people, w.labels(n))
		}
		if has(res.Marked(), n) != tc.people {
			t.Errorf("%s: in Result.Marked = %v, want %v", tc.name, has(res.Marked(), n), tc.people)
		}
	}
	if w.hasLabel(young, "stale") {
		t.Errorf("PR created 30 days ago marked")
	}
	// The listing is read to its end, and each page carries its PRs'
	// histories: nothing more is read.
	if got, pages := w.historyReads(), w.openPages(); got != 0 || pages != 1 {
		t.Errorf("%d history reads and %d pages of the open listing, want none and one", got, pages)
	}
	if !res.OK() || res.Stopped != nil {
		t.Errorf("run not OK: stopped %v failed %+v", res.Stopped, res.Failed())
	}
}

func TestFairActivityFromAnyoneBotKeepsAlive(t *testing.T) {
	t.Parallel()
	for _, inputs := range []map[string]string{nil, {"activity-from": "anyone"}} {
		w := newWorld(t)
		prs, young := buildPeople(w)
		w.fake.Reset()
		res := w.run(inputs)
		for i, tc := range peopleCases {
			n := prs[i]
			if got := w.hasLabel(n, "stale"); got != tc.anyoneToo {
				t.Errorf("inputs %v, %s (#%d): marked = %v, want %v (updated_at decides)", inputs, tc.name, n, got, tc.anyoneToo)
			}
		}
		if w.hasLabel(young, "stale") {
			t.Errorf("inputs %v: PR created 30 days ago marked", inputs)
		}
		if got := w.historyReads(); got != 0 {
			t.Errorf("inputs %v: %d timeline reads, want 0 (the listing decides)", inputs, got)
		}
		if len(res.Marked()) != 1 {
			t.Errorf("inputs %v: Marked %v, want only the untouched control", inputs, numbers(res.Marked()))
		}
	}
}

func TestFairActivityFromPeopleClosesWhenOnlyTheBotActed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	due := w.markedPR(31, sized)
	w.relabelDaily(due, 30)
	alive := w.markedPR(31, sized)
	w.relabelDaily(alive, 30)
	w.fake.Comment(alive, bob, daysAgo(2), "rebasing now")
	notYet := w.markedPR(20, sized)
	w.relabelDaily(notYet, 19)
	res := w.run(map[string]string{"activity-from": "people"})
	if w.state(due) != "closed" || !has(res.Closed(), due) || w.hasLabel(due, "stale") {
		t.Errorf("#%d marked 31 days ago, only the labeller since: state %s, labels %v, Closed %v; want closed",
			due, w.state(due), w.labels(due), numbers(res.Closed()))
	}
	if w.state(alive) != "open" || w.hasLabel(alive, "stale") || !has(res.Unstaled(), alive) {
		t.Errorf("#%d a person commented after the mark: state %s labels %v; want open and un-staled", alive, w.state(alive), w.labels(alive))
	}
	if w.state(notYet) != "open" || !w.hasLabel(notYet, "stale") {
		t.Errorf("#%d marked 20 days ago: state %s labels %v; want open and still stale", notYet, w.state(notYet), w.labels(notYet))
	}
}

// ---- 2. exempt-awaiting-review ----

func TestFairExemptAwaitingReview(t *testing.T) {
	t.Parallel()
	setup := func(w *world) (waiting, maintLast int) {
		waiting = w.pr(200)
		w.fake.Push(waiting, "alice", daysAgo(121), "feature")
		w.fake.RequestReview(waiting, alice, daysAgo(120), "bob")
		maintLast = w.pr(200)
		w.fake.RequestReview(maintLast, alice, daysAgo(130), "bob")
		w.fake.Comment(maintLast, maint, daysAgo(120), "I'll get to it")
		return waiting, maintLast
	}
	on := map[string]string{"exempt-awaiting-review": "true"}

	t.Run("waiting on a review: left alone until the review", func(t *testing.T) {
		w := newWorld(t)
		waiting, maintLast := setup(w)
		w.fake.Reset()
		res := w.run(on)
		if w.hasLabel(waiting, "stale") || len(w.fake.Comments(waiting)) != 0 {
			t.Fatalf("#%d awaits bob's review: labels %v, want not marked", waiting, w.labels(waiting))
		}
		if r, ok := reasonOf(res.Skipped(), waiting); !ok || r != lifecycle.ReasonAwaitingReview {
			t.Errorf("Skipped has #%d = %v with reason %q, want %q", waiting, ok, r, lifecycle.ReasonAwaitingReview)
		}
		if !w.hasLabel(maintLast, "stale") || !has(res.Marked(), maintLast) {
			t.Errorf("#%d: last person activity is a maintainer's comment: labels %v, want marked despite the pending request",
				maintLast, w.labels(maintLast))
		}
		if got := w.historyReads(); got != 0 {
			t.Errorf("history reads = %d, want none: the listing's page gave both PRs' histories", got)
		}

		// bob reviews now; the author does nothing more.
		w.fake.Review(waiting, bob, w.now(), "CHANGES_REQUESTED", "please split this")
		w.clock.Advance(89 * lifecycle.Day)
		w.run(on)
		if w.hasLabel(waiting, "stale") {
			t.Fatalf("89 days after the review: marked, want not yet")
		}
		w.clock.Advance(2 * lifecycle.Day)
		res = w.run(on)
		if !w.hasLabel(waiting, "stale") || !has(res.Marked(), waiting) {
			t.Fatalf("91 days after the review, author silent: labels %v, Skipped %v; want marked",
				w.labels(waiting), numbers(res.Skipped()))
		}
	})

	t.Run("review given, then the author replied: no longer waiting", func(t *testing.T) {
		// The author acted last, but the request was answered: nothing is
		// pending, so the PR waits on its author again.
		w := newWorld(t)
		n := w.pr(200)
		w.fake.RequestReview(n, alice, daysAgo(130), "bob")
		w.fake.Review(n, bob, daysAgo(125), "APPROVED", "")
		w.fake.Comment(n, alice, daysAgo(120), "thanks, will rebase")
		res := w.run(on)
		if !w.hasLabel(n, "stale") || !has(res.Marked(), n) {
			r, _ := reasonOf(res.Skipped(), n)
			t.Fatalf("labels %v, skipped reason %q: want marked (bob's review answered the request)", w.labels(n), r)
		}
	})

	t.Run("input false (default): the waiting PR is marked", func(t *testing.T) {
		for _, inputs := range []map[string]string{nil, {"exempt-awaiting-review": "false"}} {
			w := newWorld(t)
			waiting, maintLast := setup(w)
			res := w.run(inputs)
			if !w.hasLabel(waiting, "stale") || !has(res.Marked(), waiting) || !w.hasLabel(maintLast, "stale") {
				t.Errorf("inputs %v: waiting #%d labels %v, #%d labels %v; want both marked", inputs,
					waiting, w.labels(waiting), maintLast, w.labels(maintLast))
			}
			if _, ok := reasonOf(res.Skipped(), waiting); ok {
				t.Errorf("inputs %v: #%d skipped", inputs, waiting)
			}
		}
	})
}

// ---- 3. templated messages ----

const allPlaceholders = "author=[{{author}}] reviewers=[{{reviewers}}] inactive=[{{days-inactive}}] " +
	"stale=[{{days-before-stale}}] close=[{{days-before-close}}] date=[{{close-date}}] " +
	"label=[{{stale-label}}] labels=[{{labels}}]"

var fieldRE = regexp.MustCompile(`([a-z]+)=\[([^\]]*)\]`)

func fields(body string) map[string]string {
	m := map[string]string{}
	for _, f := range fieldRE.FindAllStringSubmatch(body, -1) {
		m[f[1]] = f[2]
	}
	return m
}

// commentWith returns the body of the one comment on n carrying marker kind.
func (w *world) commentWith(n int, kind string) string {
	w.t.Helper()
	var bodies []string
	for _, c := range w.fake.Comments(n) {
		if strings.Contains(c.Body, "<!-- stalepr:"+kind) {
			bodies = append(bodies, c.Body)
		}
	}
	if len(bodies) != 1 {
		w.t.Fatalf("#%d: %d %s comments, want 1", n, len(bodies), kind)
	}
	return bodies[0]
}

func checkFields(t *testing.T, what, body string, want map[string]string) {
	t.Helper()
	if strings.Contains(body, "{{") || strings.Contains(body, "}}") {
		t.Errorf("%s: placeholder left unrendered:\n%s", what, body)
	}
	got := fields(body)
	for _, k := range []string{"author", "reviewers", "inactive", "stale", "close", "date", "label", "labels"} {
		if k == "labels" {
			for _, l := range strings.Split(want[k], ", ") {
				if !strings.Contains(", "+got[k]+", ", ", "+l+", ") {
					t.Errorf("%s: {{labels}} = %q, want it to list %q", what, got[k], l)
				}
			}
			continue
		}
		if got[k] != want[k] {
			t.Errorf("%s: %s = %q, want %q", what, k, got[k], want[k])
		}
	}
}

func TestFairTemplatedMessagesRenderEveryPlaceholder(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.fake.AddPR(fakegithub.Issue{Title: "docs", User: alice, CreatedAt: daysAgo(100), UpdatedAt: daysAgo(100),
		Labels: []string{"area/docs", "needs-rebase"}})
	w.fake.RequestReview(n, alice, daysAgo(75), "bob")
	w.fake.RequestReview(n, alice, daysAgo(75), "carol")
	w.fake.Comment(n, alice, daysAgo(70), "ready when you are")
	inputs := map[string]string{
		"days-before-stale": "60", "days-before-close": "20", "stale-pr-label": "lifecycle/stale",
		"stale-pr-message": "stale " + allPlaceholders, "close-pr-message": "closing " + allPlaceholders,
	}
	res := w.run(inputs)
	if !has(res.Marked(), n) {
		t.Fatalf("#%d not marked: labels %v", n, w.labels(n))
	}
	closeDate := t0.Add(20 * lifecycle.Day).Format(time.DateOnly) // 2026-12-19
	checkFields(t, "stale notice", w.commentWith(n, "stale"), map[string]string{
		"author": "@alice", "reviewers": "@bob, @carol", "inactive": "70", "stale": "60", "close": "20",
		"date": closeDate, "label": "lifecycle/stale", "labels": "area/docs, needs-rebase",
	})

	w.clock.Advance(20*lifecycle.Day + time.Hour)
	res = w.run(inputs)
	if w.state(n) != "closed" || !has(res.Closed(), n) {
		t.Fatalf("#%d 20 days after the mark: state %s, want closed", n, w.state(n))
	}
	// Inactive since alice's comment 70 days before the mark: the mark and
	// our notice are not activity (README, rule 3).
	checkFields(t, "close comment", w.commentWith(n, "close"), map[string]string{
		"author": "@alice", "reviewers": "@bob, @carol", "inactive": "90", "stale": "60", "close": "20",
		"date": closeDate, "label": "lifecycle/stale", "labels": "area/docs, needs-rebase",
	})
}

func TestFairDefaultMessagesRenderFully(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	mark := w.pr(120)
	closing := w.markedPR(31)
	w.run(nil)
	stale := w.commentWith(mark, "stale")
	closed := w.commentWith(closing, "close")
	for what, body := range map[string]string{"stale notice": stale, "close comment": closed} {
		if strings.Contains(body, "{{") || strings.Contains(body, "}}") {
			t.Errorf("default %s has a placeholder left:\n%s", what, body)
		}
	}
	for _, want := range []string{"120 days", "`stale`", "2026-12-29"} {
		if !strings.Contains(stale, want) {
			t.Errorf("default stale notice lacks %q:\n%s", want, stale)
		}
	}
	for _, want := range []string{"30 days", "`stale`"} {
		if !strings.Contains(closed, want) {
			t.Errorf("default close comment lacks %q:\n%s", want, closed)
		}
	}
}

func TestFairUnknownPlaceholderIsAConfigError(t *testing.T) {
	t.Parallel()
	for _, input := range []string{"stale-pr-message", "close-pr-message"} {
		t.Run(input, func(t *testing.T) {
			inputs := map[string]string{input: "Hello {{autor}}, see {{days-inactive}}"}
			_, err := config.Parse(config.Source{
				Input: func(name string) (string, bool) { v, ok := inputs[name]; return v, ok },
				Env: func(name string) string {
					return map[string]string{"GITHUB_TOKEN": token, "GITHUB_REPOSITORY": "octo/repo"}[name]
				},
			})
			if err == nil {
				t.Fatal("config.Parse accepted an unknown placeholder")
			}
			var ie *config.InputError
			if !errors.As(err, &ie) || ie.Name != input {
				t.Errorf("error %v: want an *config.InputError for %s", err, input)
			}
			msg := err.Error()
			if !strings.Contains(msg, input) || !strings.Contains(msg, "{{autor}}") {
				t.Errorf("error %q should name the input %s and the placeholder {{autor}}", msg, input)
			}
			if strings.Contains(msg, "{{days-inactive}}") && !strings.Contains(msg, "known") {
				t.Errorf("error %q blames a known placeholder", msg)
			}
		})
	}
}

func TestFairEmptyStaleMessageMarksSilently(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(120)
	inputs := map[string]string{"stale-pr-message": "", "close-pr-message": ""}
	res := w.run(inputs)
	if !w.hasLabel(n, "stale") || !has(res.Marked(), n) || len(w.fake.Comments(n)) != 0 {
		t.Fatalf("labels %v, %d comments: want marked without a comment", w.labels(n), len(w.fake.Comments(n)))
	}
	for i := 0; i < 2; i++ {
		w.clock.Advance(time.Hour)
		w.fake.Reset()
		res = w.run(inputs)
		if got := w.fake.Writes(); got != 0 {
			t.Fatalf("run %d after the silent mark sent %d writes: %v", i+2, got, w.fake.WriteRequests())
		}
		if has(res.Marked(), n) {
			t.Errorf("run %d reports #%d marked again (%v): no notice is configured, so none is missing", i+2, n, res.Marked())
		}
		if !has(res.Stale(), n) {
			t.Errorf("run %d: #%d not listed as still stale (Stale %v)", i+2, n, numbers(res.Stale()))
		}
	}
	w.clock.Advance(31 * lifecycle.Day)
	res = w.run(inputs)
	if w.state(n) != "closed" || !has(res.Closed(), n) || len(w.fake.Comments(n)) != 0 || w.hasLabel(n, "stale") {
		t.Fatalf("31 days after the silent mark: state %s, %d comments, labels %v; want closed, no comment, no stale label",
			w.state(n), len(w.fake.Comments(n)), w.labels(n))
	}
}

func TestFairEmptyCloseMessageClosesSilently(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(31)
	before := len(w.fake.Comments(n))
	w.fake.Reset()
	res := w.run(map[string]string{"close-pr-message": ""})
	if w.state(n) != "closed" || !has(res.Closed(), n) {
		t.Fatalf("state %s, want closed", w.state(n))
	}
	if got := len(w.fake.Comments(n)); got != before || w.notices(n, "close") != 0 {
		t.Errorf("%d comments after closing (was %d): want no close comment", got, before)
	}
	if got := w.fake.CountBy()["POST /repos/{owner}/{repo}/issues/{issue_number}/comments"]; got != 0 {
		t.Errorf("%d comment posts, want 0", got)
	}
}

// ---- 4. label hygiene ----

func TestFairLabelHygiene(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	merged := w.markedPR(10)
	w.fake.Merge(merged, maint, daysAgo(2))
	closedByPerson := w.markedPR(10)
	w.fake.Close(closedByPerson, alice, daysAgo(3), "")
	ours := w.markedPR(31)
	longAgo := w.markedPR(100)
	w.fake.Close(longAgo, maint, daysAgo(60), "")
	w.fake.Reset()

	res := w.run(nil)
	for _, n := range []int{merged, closedByPerson} {
		if w.hasLabel(n, "stale") || !has(res.Cleaned(), n) {
			t.Errorf("#%d closed by a person inside the close window: labels %v, Cleaned %v; want the stale label removed",
				n, w.labels(n), numbers(res.Cleaned()))
		}
	}
	if w.state(ours) != "closed" || w.hasLabel(ours, "stale") || has(res.Cleaned(), ours) {
		t.Errorf("#%d closed by stalepr: state %s labels %v; want closed with the label swapped in the closing request",
			ours, w.state(ours), w.labels(ours))
	}
	if !w.hasLabel(longAgo, "stale") || has(res.Cleaned(), longAgo) {
		t.Errorf("#%d closed 60 days ago was touched: labels %v", longAgo, w.labels(longAgo))
	}
	closedListings := 0
	for _, r := range w.fake.Requests() {
		if strings.Contains(r.Path, "state=closed") {
			closedListings++
			if !strings.Contains(r.Path, "since=") {
				t.Errorf("closed listing not bounded by since: %s", r.Path)
			}
		}
		if r.Write && strings.Contains(r.Path, "/issues/"+strconv.Itoa(longAgo)+"/") {
			t.Errorf("write on #%d closed long ago: %s %s", longAgo, r.Method, r.Path)
		}
	}
	if closedListings != 1 {
		t.Errorf("%d listings of closed PRs, want 1", closedListings)
	}
	if w.state(merged) != "closed" || w.state(closedByPerson) != "closed" {
		t.Errorf("cleaning reopened something")
	}

	w.clock.Advance(time.Minute)
	w.fake.Reset()
	res = w.run(nil)
	if w.fake.Writes() != 0 || len(res.Cleaned()) != 0 {
		t.Errorf("second run: %d writes, Cleaned %v; want nothing", w.fake.Writes(), numbers(res.Cleaned()))
	}
}

func TestFairLabelHygieneDryRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	merged := w.markedPR(10)
	w.fake.Merge(merged, maint, daysAgo(2))
	closedByPerson := w.markedPR(10)
	w.fake.Close(closedByPerson, bob, daysAgo(2), "")
	w.fake.Reset()
	res := w.run(map[string]string{"debug-only": "true"})
	if got := w.fake.Writes(); got != 0 {
		t.Fatalf("dry run sent %d writes: %v", got, w.fake.WriteRequests())
	}
	for _, n := range []int{merged, closedByPerson} {
		if !w.hasLabel(n, "stale") {
			t.Errorf("dry run removed the label of #%d", n)
		}
		if !has(res.Cleaned(), n) {
			t.Errorf("dry run should report #%d as would-be cleaned: Cleaned %v", n, numbers(res.Cleaned()))
		}
	}
}
