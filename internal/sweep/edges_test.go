package sweep_test

// Edges a team switching from actions/stale meets (issue 15) and what
// concurrent runs broke (issue 19): locked PRs, close-pr-label on open PRs,
// remove-stale-when-updated: false, exempt-approved against GitHub's review
// decision.

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

func locked(is *fakegithub.Issue) { is.Locked = true }

// why is the reason n is listed with in items; "" when not listed.
func why(items []sweep.Item, n int) lifecycle.Reason {
	r, _ := reasonOf(items, n)
	return r
}

// writesTo lists the write routes sent for PR n.
func (w *world) writesTo(n int) []string {
	var out []string
	for _, r := range w.fake.WriteRequests() {
		if sfPROf(r) == n {
			out = append(out, r.Route)
		}
	}
	return out
}

// Rule 6: a locked conversation is left alone, as actions/stale does: not
// marked, not closed, and its stale label stays whatever happens on it.
func TestLockedPRsAreLeftAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inactive := w.pr(200, locked)     // found by the pulls listing
	due := w.markedPR(40, locked)     // found by the stale-label listing
	revived := w.markedPR(20, locked) // a person commented after the mark
	w.fake.Comment(revived, bob, daysAgo(1), "still on it")
	open := w.pr(200)
	res := w.run(map[string]string{"labels-to-add-when-unstale": "active"})
	for _, n := range []int{inactive, due, revived} {
		if got := w.writesTo(n); len(got) != 0 {
			t.Errorf("locked #%d got writes %v; want none", n, got)
		}
		if r := why(res.Skipped(), n); r != lifecycle.ReasonLocked {
			t.Errorf("locked #%d: skipped as %q, want %q", n, r, lifecycle.ReasonLocked)
		}
	}
	if w.state(due) != "open" || !w.hasLabel(due, "stale") || !w.hasLabel(revived, "stale") {
		t.Errorf("locked PRs changed: #%d %s %v, #%d %v", due, w.state(due), w.labels(due), revived, w.labels(revived))
	}
	if !has(res.Marked(), open) {
		t.Errorf("the unlocked PR #%d was not marked", open)
	}
}

// Rule 4 and the migration table: close-pr-label means "closed as stale".
// A PR closed so and reopened loses it on the next run (one write, that
// label only); closed PRs, issues and locked PRs keep theirs.
func TestCloseLabelComesOffReopenedPRs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := map[string]string{"close-pr-label": "closed-stale"}
	reopened := w.pr(5, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale", "area/api"} })
	// Reopened, then marked again: it carries both labels.
	both := w.markedPR(3, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale"} })
	closed := w.pr(50, func(is *fakegithub.Issue) {
		is.Labels, is.State, is.ClosedAt = []string{"closed-stale"}, "closed", daysAgo(50)
	})
	issue := w.fake.AddIssue(fakegithub.Issue{Title: "an issue closed-stale by another bot", User: alice,
		CreatedAt: daysAgo(100), UpdatedAt: daysAgo(5), Labels: []string{"closed-stale"}})
	lockedPR := w.pr(5, locked, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale"} })
	closing := w.markedPR(40) // this run closes it: it keeps the label it gets

	res := w.run(inputs)
	if w.hasLabel(reopened, "closed-stale") || !w.hasLabel(reopened, "area/api") {
		t.Errorf("reopened #%d: labels %v, want closed-stale off and area/api kept", reopened, w.labels(reopened))
	}
	if got := w.writesTo(reopened); len(got) != 1 || got[0] != "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}" {
		t.Errorf("reopened #%d: writes %v, want the one label removal", reopened, got)
	}
	if w.hasLabel(both, "closed-stale") || !w.hasLabel(both, "stale") {
		t.Errorf("reopened and marked again #%d: labels %v, want stale only", both, w.labels(both))
	}
	for _, n := range []int{closed, issue, lockedPR} {
		if !w.hasLabel(n, "closed-stale") || len(w.writesTo(n)) != 0 {
			t.Errorf("#%d (closed, an issue, or locked) was touched: labels %v", n, w.labels(n))
		}
	}
	if w.state(closing) != "closed" || !w.hasLabel(closing, "closed-stale") {
		t.Errorf("#%d closed by this run: %s %v, want closed with closed-stale", closing, w.state(closing), w.labels(closing))
	}
	if !has(res.Cleaned(), reopened) || !has(res.Cleaned(), both) {
		t.Errorf("Cleaned = %v, want #%d and #%d", numbers(res.Cleaned()), reopened, both)
	}
	// The next run has nothing left to do about it.
	w.fake.Reset()
	w.run(inputs)
	for _, r := range w.fake.WriteRequests() {
		if strings.Contains(r.Route, "labels") {
			t.Errorf("second run: %s on #%d", r.Route, sfPROf(r))
		}
	}
}

var onePull = regexp.MustCompile(`/pulls/[0-9]+$`)

// hookBase runs hook once, before the first request that match selects,
// then sends every request on.
type hookBase struct {
	once  sync.Once
	match func(*http.Request) bool
	hook  func()
}

func (h *hookBase) RoundTrip(r *http.Request) (*http.Response, error) {
	if h.match(r) {
		h.once.Do(h.hook)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// graphqlDoc is the query document of a GraphQL request, "" for any other.
func graphqlDoc(r *http.Request) string {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/graphql") || r.GetBody == nil {
		return ""
	}
	b, err := r.GetBody()
	if err != nil {
		return ""
	}
	defer b.Close()
	var body struct {
		Query string `json:"query"`
	}
	if json.NewDecoder(b).Decode(&body) != nil {
		return ""
	}
	return body.Query
}

// isWrite tells a request that changes something: any method but GET and
// HEAD, except a GraphQL query (a listing page, a history, the viewer),
// which only reads.
func isWrite(r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return false
	}
	doc := graphqlDoc(r)
	return doc == "" || strings.HasPrefix(strings.TrimSpace(doc), "mutation")
}

// isOpenPage tells a request for a page of the open pull requests, which
// carries their histories.
func isOpenPage(r *http.Request) bool { return strings.Contains(graphqlDoc(r), "pullRequests(") }

// Issue 19: a run that finds a PR closed by a concurrent run since its
// listing leaves it alone: it keeps close-pr-label, gets no
// labels-to-add-when-unstale, and is not reported un-staled.
func TestConcurrentCloseIsNotTakenForAReopen(t *testing.T) {
	t.Parallel()
	inputs := sfWith(sfInputs, "close-pr-label", "closed-stale", "labels-to-add-when-unstale", "active")
	check := func(t *testing.T, w *world, prs []int, res sweep.Result) {
		t.Helper()
		for _, n := range prs {
			if w.state(n) != "closed" || !w.hasLabel(n, "closed-stale") || w.hasLabel(n, "active") || w.hasLabel(n, "stale") {
				t.Errorf("#%d: %s, labels %v; want closed with closed-stale only", n, w.state(n), w.labels(n))
			}
			if has(res.Unstaled(), n) {
				t.Errorf("#%d reported un-staled by the run that came second", n)
			}
		}
	}

	// The other run closes the PRs while this run lists: a page of open
	// PRs carries their histories, so this run's reads are its listing
	// pages, and the close comes before its first. (The histories of
	// PRs the page does not list are not read: a closed PR is left alone.)
	t.Run("closed before the reads", func(t *testing.T) {
		w := newWorld(t)
		prs := []int{w.markedPR(40), w.markedPR(45)}
		var other sweep.Result
		base := &hookBase{
			match: isOpenPage,
			hook:  func() { other = w.sfRun(inputs, sfOpts{}) },
		}
		w.fake.Reset()
		res := w.sfRun(inputs, sfOpts{base: base})
		if len(other.Closed()) != len(prs) {
			t.Fatalf("the other run closed %v, want %v", numbers(other.Closed()), prs)
		}
		check(t, w, prs, res)
		otherWrites := len(prs) * 2 // its closing comment and close for each
		if ws := w.fake.WriteRequests(); len(ws) != otherWrites {
			t.Errorf("%d writes, want the other run's %d: this run wrote to PRs closed before it read them", len(ws), otherWrites)
		}
	})

	// The other run reads before a person comments and closes after this
	// run has read (and found the comment): only a fresh read right before
	// the un-stale's label write can tell.
	t.Run("closed between the reads and the writes", func(t *testing.T) {
		w := newWorld(t)
		prs := []int{w.markedPR(40), w.markedPR(41), w.markedPR(42)}
		revived := prs[0]
		firstWrite := isWrite
		// The second run's reads are done once it writes, or reads one PR
		// afresh before writing.
		afterReads := func(r *http.Request) bool { return firstWrite(r) || onePull.MatchString(r.URL.Path) }
		ready, done := make(chan struct{}), make(chan struct{})
		pass := func() {
			select {
			case ready <- struct{}{}:
			case <-time.After(10 * time.Second):
				t.Error("the runs did not interleave as planned")
			}
		}
		wait := func() {
			select {
			case <-ready:
			case <-time.After(10 * time.Second):
				t.Error("the runs did not interleave as planned")
			}
		}
		var res sweep.Result
		go func() {
			defer close(done)
			wait()
			// This run's reads see the comment; its writes wait until the
			// other run has closed everything.
			res = w.sfRun(inputs, sfOpts{base: &hookBase{match: afterReads, hook: func() { pass(); wait() }}})
		}()
		other := w.sfRun(inputs, sfOpts{base: &hookBase{match: firstWrite, hook: func() {
			w.fake.Comment(revived, bob, w.now(), "please keep it open")
			pass() // start the second run
			wait() // until its reads are done
		}}})
		pass() // the other run is done: let the second one write
		<-done
		if !has(other.Closed(), revived) {
			t.Fatalf("the other run did not close #%d: %v", revived, numbers(other.Closed()))
		}
		check(t, w, []int{revived}, res)
		if r := why(res.Skipped(), revived); r != lifecycle.ReasonClosedSince {
			t.Errorf("#%d skipped as %q, want %q", revived, r, lifecycle.ReasonClosedSince)
		}
	})
}

// Item 2 meets item 4: a PR with close-pr-label that the listing showed
// open and another run closed since keeps the label.
func TestCloseLabelKeptOnAPRClosedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := sfWith(sfInputs, "close-pr-label", "closed-stale")
	// Closed as stale once, reopened, marked again, due again.
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale"} })
	// This run skips it (exempt), so only its clean-up would touch it; the
	// other run, without the exemption, closes it after this run listed it.
	mine := sfWith(inputs, "exempt-pr-labels", "area/api")
	w.fake.Label(n, maint, daysAgo(41), "area/api")
	listed := func(r *http.Request) bool {
		return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls/"+strconv.Itoa(n))
	}
	var other sweep.Result
	res := w.sfRun(mine, sfOpts{base: &hookBase{match: listed, hook: func() { other = w.sfRun(inputs, sfOpts{}) }}})
	if !has(other.Closed(), n) {
		t.Fatalf("the other run did not close #%d", n)
	}
	if !w.hasLabel(n, "closed-stale") || has(res.Cleaned(), n) {
		t.Errorf("#%d closed by the other run: labels %v, cleaned %v; want closed-stale kept", n, w.labels(n), has(res.Cleaned(), n))
	}
	found := false
	for _, it := range res.Skipped() {
		found = found || it.Number == n && it.Reason == lifecycle.ReasonClosedSince
	}
	if !found {
		t.Errorf("#%d not skipped as %q: %+v", n, lifecycle.ReasonClosedSince, res.Skipped())
	}
}

// Rule 3, remove-stale-when-updated: false. A person's comment after the
// mark is the PR's last update; the repository's comments do not date the
// mark (three stale PRs make the comment listing cheaper than timelines, and
// it starts after the notice; or the notice's marker carries no date): the
// timeline does, and the PR closes days-before-close after the comment.
func TestKeptLabelClosesWhenTheCommentsCannotDateTheMark(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		marker string // the notice's marker; "" for the harness's dated one
	}{
		{"notice before the comment listing's start", ""},
		{"bare marker without a date", "<!-- stalepr:stale -->"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			inputs := map[string]string{"remove-stale-when-updated": "false"}
			var n int
			if tc.marker == "" {
				n = w.markedPR(80)
			} else {
				n = w.pr(170)
				w.fake.Label(n, action, daysAgo(80), "stale")
				w.fake.Comment(n, action, daysAgo(80).Add(time.Second), "This PR is stale.\n\n"+tc.marker)
			}
			w.fake.Comment(n, bob, daysAgo(35), "I will get back to it")
			others := []int{w.markedPR(2), w.markedPR(3), w.markedPR(4)}
			res := w.run(inputs)
			if w.state(n) != "closed" || !has(res.Closed(), n) {
				t.Fatalf("#%d: %s, skipped as %q; want closed 30 days after the person's comment", n, w.state(n), why(res.Skipped(), n))
			}
			if r := why(res.Closed(), n); r != lifecycle.ReasonCloseDueSincePerson {
				t.Errorf("closed as %q, want %q: the clock ran from the person's comment", r, lifecycle.ReasonCloseDueSincePerson)
			}
			for _, o := range others {
				if w.state(o) != "open" || !w.hasLabel(o, "stale") {
					t.Errorf("#%d marked days ago changed: %s %v", o, w.state(o), w.labels(o))
				}
			}
		})
	}
}

// exempt-approved follows GitHub's review decision: an approval does not
// exempt while another reviewer's latest review requests changes.
func TestExemptApprovedNotWhileChangesAreRequested(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddMember(maint.Login, bob.Login) // only reviews by accounts with write access count
	blocked := w.pr(100)
	w.fake.Review(blocked, maint, daysAgo(105), "APPROVED", "")
	w.fake.Review(blocked, bob, daysAgo(101), "CHANGES_REQUESTED", "the API changes need a test")
	settled := w.pr(100)
	w.fake.Review(settled, maint, daysAgo(105), "APPROVED", "")
	w.fake.Review(settled, bob, daysAgo(103), "CHANGES_REQUESTED", "needs a test")
	w.fake.Review(settled, bob, daysAgo(101), "APPROVED", "")
	res := w.run(map[string]string{"exempt-approved": "true"})
	if !w.hasLabel(blocked, "stale") || !has(res.Marked(), blocked) {
		t.Errorf("#%d approved by one, changes requested by another: not marked (%q); it waits on its author", blocked, why(res.Skipped(), blocked))
	}
	if w.hasLabel(settled, "stale") || why(res.Skipped(), settled) != lifecycle.ReasonApproved {
		t.Errorf("#%d approved by both in the end: marked, want exempt", settled)
	}
}

// With marking off (days-before-stale: -1) and an input that reads the
// whole open listing, the stale PRs are still listed: the labelled listing
// was skipped for the open one, which marking off did not read, and a PR
// marked before stayed open for ever (found by the GraphQL tests' review).
func TestMarkingOffStillClosesTheMarked(t *testing.T) {
	t.Parallel()
	for _, inputs := range []map[string]string{
		{"days-before-stale": "-1", "activity-from": "people"},
		{"days-before-stale": "-1", "stale-clock": "author-turn"},
	} {
		w := turnWorld(t) // maintainer is a member: a maintainer
		due := w.markedPR(40)
		w.fake.Review(due, maint, daysAgo(135), "CHANGES_REQUESTED", "please rebase") // the author's turn since
		revived := w.markedPR(10)
		w.fake.Comment(revived, bob, daysAgo(2), "still on it")
		res := w.run(inputs)
		if w.state(due) != "closed" || !has(res.Closed(), due) {
			t.Errorf("%v: #%d marked 40 days ago: state %s; want closed", inputs, due, w.state(due))
		}
		if w.hasLabel(revived, "stale") {
			t.Errorf("%v: #%d: a person commented after the mark, still labelled", inputs, revived)
		}
	}
}
