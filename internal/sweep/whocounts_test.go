package sweep_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Who counts and what moves the turn, end to end through the HTTP path:
// README "Whose turn it is", one test per rule; those that are one run
// over a repository are cases in testdata/rules/author-turn and
// testdata/rules/exempt (TestRuleCases).

// expectMarked runs nothing: it checks each PR's stale label against want.
func (w *world) expectMarked(t *testing.T, want map[int]bool, names map[int]string) {
	t.Helper()
	for n, marked := range want {
		if got := w.hasLabel(n, "stale"); got != marked {
			t.Errorf("%s (#%d): marked = %v, want %v", names[n], n, got, marked)
		}
	}
}

// TestTurnRuleMixedAccessIsAsked: two accounts of unknown access, one a
// MEMBER by its comment, the other unqualified (its only act a review
// request, which GitHub gives no author_association): every one a
// maintainer and none decide alike (not marked), but each by its own
// association would mark (the comment passes the turn to the author, the
// request passes nothing back). The run reads who may push instead of
// deciding on the mixture.
func TestTurnRuleMixedAccessIsAsked(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.openPR(60, alice)
	f.Comment(n, maint, daysAgo(40), "could you split this?")
	f.RequestReview(n, mia, daysAgo(30), "rey")
	res := w.run(authorTurnInputs)
	w.expectMarked(t, map[int]bool{n: false}, map[int]string{n: "a maintainer's request after another's comment"})
	if res.CollaboratorPages == 0 && res.PermissionReads == 0 {
		t.Error("who may push was not read: the mixture decided")
	}
}

// TestTurnRuleBotAuthorActs: a bot author's own actions count: Dependabot
// rebasing when asked hands the PR back to the reviewers.
func TestTurnRuleBotAuthorActs(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	dependabot := fakegithub.Bot("dependabot[bot]")
	rebased := w.openPR(60, dependabot)
	f.Comment(rebased, maint, daysAgo(30), "@dependabot rebase")
	f.ForcePush(rebased, dependabot, daysAgo(30).Add(5*time.Minute))
	agent := w.openPR(60, fakegithub.Bot("Copilot"))
	f.Review(agent, maint, daysAgo(30), "CHANGES_REQUESTED", "@copilot please add a test")
	f.PushAs(agent, fakegithub.Bot("Copilot"), daysAgo(29), "add a test")
	ignored := w.openPR(60, dependabot)
	f.Comment(ignored, maint, daysAgo(30), "@dependabot rebase")
	w.run(authorTurnInputs)
	w.expectMarked(t, map[int]bool{rebased: false, agent: false, ignored: true},
		map[int]string{rebased: "Dependabot rebased", agent: "the coding agent pushed", ignored: "Dependabot did nothing"})
}

// TestTurnRuleBotAccounts: bot-accounts are bots whatever GitHub says: a
// CI account's comment passes no turn and keeps nothing alive.
func TestTurnRuleBotAccounts(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	robot := fakegithub.Person("project-ci")
	f.AddMember(robot.Login) // a plain user, association MEMBER
	commented := w.openPR(60, alice)
	f.Push(commented, "alice", daysAgo(30), "fix")
	f.Comment(commented, robot, daysAgo(30).Add(time.Minute), "build passed")
	w.run(sfWith(authorTurnInputs, "bot-accounts", "Project-CI"))
	w.expectMarked(t, map[int]bool{commented: false}, map[int]string{commented: "a CI account commented after the push"})

	stale := w.markedPR(3)
	f.Comment(stale, robot, daysAgo(1), "build passed")
	w.run(map[string]string{"activity-from": "people", "days-before-stale": "30", "days-before-close": "7", "bot-accounts": "project-ci"})
	w.expectMarked(t, map[int]bool{stale: true}, map[int]string{stale: "a stale PR the CI account commented on"})
}

// TestTurnRuleMaintainerIsWriteAccess: a maintainer is an account with
// write access, learnt once per run and only where it changes a decision:
// from the collaborator listing, one read for every account, or, where
// GitHub refuses the listing, from each account's permission; reviewers
// adds maintainers. Both ways decide alike.
func TestTurnRuleMaintainerIsWriteAccess(t *testing.T) {
	t.Parallel()
	for _, listing := range []bool{true, false} {
		t.Run(fmt.Sprintf("listing allowed %v", listing), func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			f := w.fake
			f.SetCollaboratorsForbidden(!listing)
			docs := fakegithub.Person("docs-lead")
			memberOnly, writer := w.memberAndWriter()
			again := w.openPR(60, alice)
			f.Comment(again, fakegithub.Person("orgmate"), daysAgo(30), "+1")
			reviewer := w.openPR(60, alice)
			f.Comment(reviewer, docs, daysAgo(30), "the docs need a section")
			teamReview := w.openPR(60, alice)
			f.RequestReview(teamReview, alice, daysAgo(59), "team:docs")
			f.AddMember("writer") // of the docs team, which may not push
			f.SetPermission("writer", "read")
			f.Review(teamReview, fakegithub.Person("writer"), daysAgo(30), "CHANGES_REQUESTED", "a section is missing")
			young := w.openPR(5, alice)
			f.Comment(young, fakegithub.Person("newcomer"), daysAgo(4), "nice")
			res := w.run(sfWith(authorTurnInputs, "reviewers", "docs-lead, octo/docs"))
			w.expectMarked(t, map[int]bool{memberOnly: false, again: false, writer: true, reviewer: true, teamReview: true},
				map[int]string{memberOnly: "an org member without write access commented", again: "the same again",
					writer: "a writer with association CONTRIBUTOR commented", reviewer: "a listed reviewer commented",
					teamReview: "the listed docs team's requested review"})
			asked := map[string]int{}
			for _, r := range f.Requests() {
				if r.Route == "GET /repos/{owner}/{repo}/collaborators/{username}/permission" {
					parts := strings.Split(r.Path, "/")
					asked[parts[len(parts)-2]]++
				}
			}
			switch {
			case listing && (len(asked) != 0 || collaboratorQueries(w) != 1 || res.CollaboratorPages != 1):
				t.Errorf("permission reads %v, %d listings (%d pages reported); want the one listing and no permission read", asked, collaboratorQueries(w), res.CollaboratorPages)
			case !listing && (asked["orgmate"] != 1 || asked["quiet"] != 1 || len(asked) != 2 || collaboratorQueries(w) != 1):
				t.Errorf("permission reads %v after %d listings, want the refused listing once, then orgmate and quiet once each (docs-lead is a listed reviewer, the newcomer's PR is too young to matter)", asked, collaboratorQueries(w))
			}
		})
	}
}

// memberAndWriter are two PRs by alice a month quiet since a comment: by
// orgmate, a MEMBER of the organisation with no role on the repository
// (no maintainer), and by quiet, a CONTRIBUTOR with write access (a
// maintainer): only their access tells them apart.
func (w *world) memberAndWriter() (member, writer int) {
	f := w.fake
	orgmate, quiet := fakegithub.Person("orgmate"), fakegithub.Person("quiet")
	f.AddMember(orgmate.Login)
	f.SetPermission(orgmate.Login, "read")
	f.SetPermission(quiet.Login, "write")
	member = w.openPR(60, alice)
	f.Comment(member, orgmate, daysAgo(30), "+1, we need this")
	writer = w.openPR(60, alice)
	f.Comment(writer, quiet, daysAgo(30), "please rebase")
	return member, writer
}

// collaboratorQueries counts the GraphQL queries that list the collaborators.
func collaboratorQueries(w *world) int {
	n := 0
	for _, r := range w.fake.Requests() {
		if r.Route == "POST /graphql" && strings.Contains(r.Body, "collaborators(") {
			n++
		}
	}
	return n
}

// TestTurnRuleTeamAndBotReviewers: a team's request is answered by a
// maintainer's review, never a bot's; a bot's pending request does not
// keep a PR waiting on reviewers; no bot is mentioned in a nudge.
func TestTurnRuleTeamAndBotReviewers(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	copilotReviewer := fakegithub.Bot("copilot-pull-request-reviewer[bot]")
	team := w.pr(40)
	f.Push(team, "alice", daysAgo(40), "ready")
	f.RequestReview(team, alice, daysAgo(40), "team:core")
	f.Review(team, copilotReviewer, daysAgo(40).Add(time.Minute), "COMMENTED", "Copilot reviewed 3 files")
	onlyCopilot := w.pr(40)
	f.Push(onlyCopilot, "alice", daysAgo(40), "ready")
	f.RequestReview(onlyCopilot, alice, daysAgo(40), "Copilot")
	w.run(map[string]string{"exempt-awaiting-review": "true", "activity-from": "people", "days-before-stale": "30", "days-before-close": "7"})
	w.expectMarked(t, map[int]bool{team: false, onlyCopilot: true},
		map[int]string{team: "the core team's review, after a bot's", onlyCopilot: "only Copilot was asked"})

	nudged := w.openPR(10, alice)
	f.RequestReview(nudged, alice, daysAgo(10), "Copilot")
	f.RequestReview(nudged, alice, daysAgo(10), "rey")
	w.run(nudgeInputs)
	cs := f.Comments(nudged)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "@rey") || strings.Contains(strings.ToLower(cs[0].Body), "@copilot") {
		t.Errorf("want one nudge mentioning @rey and no bot: %v", cs)
	}
}

// TestTurnRuleApprovedThenPushed: approved, then the author pushes: the
// reviewers' turn again, so a review nudge falls due; approved and left
// unmerged, the maintainers' turn: the nudge names the merge.
func TestTurnRuleApprovedThenPushed(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	pushed := w.openPR(40, alice)
	f.Review(pushed, maint, daysAgo(30), "APPROVED", "lgtm")
	f.Push(pushed, "alice", daysAgo(20), "one more fix")
	approved := w.openPR(40, alice)
	f.Review(approved, maint, daysAgo(30), "APPROVED", "lgtm")
	w.run(nudgeInputs)
	if w.notices(pushed, "nudge") != 1 || w.notices(approved, "nudge") != 1 {
		t.Fatalf("nudges: %d on the PR pushed after its approval (want 1), %d on the approved one (want 1)",
			w.notices(pushed, "nudge"), w.notices(approved, "nudge"))
	}
	if body := w.fake.Comments(pushed)[0].Body; !strings.Contains(body, "for a review") {
		t.Errorf("the nudge on the reviewers' turn does not ask for a review:\n%s", body)
	}
	if body := w.fake.Comments(approved)[0].Body; !strings.Contains(body, "waiting 30 days to be merged") || strings.Contains(body, "review") {
		t.Errorf("the nudge on the maintainers' turn does not name the merge:\n%s", body)
	}
}

var turnLabelInputs = map[string]string{"days-before-stale": "-1", "author-turn-label": "waiting-on-author", "reviewers-turn-label": "waiting-on-review"}

// writesSince are the write requests the fake answered after its first n requests.
func (w *world) writesSince(n int) []string {
	var out []string
	for _, r := range w.fake.Requests()[n:] {
		if r.Write {
			out = append(out, r.Route)
		}
	}
	return out
}

// TestTurnLabelsKeptRight: author-turn-label and reviewers-turn-label
// follow the turn on every run, one write per change and none when nothing
// changed; a maintainer adding one by hand hands the turn over; two runs at
// once leave one label.
func TestTurnLabelsKeptRight(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	waiting := w.openPR(10, alice)
	asked := w.openPR(10, alice)
	f.Comment(asked, maint, daysAgo(5), "could you add a test?")
	approved := w.openPR(10, alice)
	f.Review(approved, maint, daysAgo(5), "APPROVED", "lgtm")
	young := w.openPR(0.5, bob)
	labels := func(n int) string { return strings.Join(w.labels(n), ",") }
	want := func(run string, exp map[int]string) {
		t.Helper()
		for n, l := range exp {
			if got := labels(n); got != l {
				t.Errorf("%s: #%d labels %q, want %q", run, n, got, l)
			}
		}
	}

	var wg sync.WaitGroup
	for range 2 { // two runs at once
		wg.Add(1)
		go func() { defer wg.Done(); w.run(turnLabelInputs) }()
	}
	wg.Wait()
	want("first runs", map[int]string{waiting: "waiting-on-review", asked: "waiting-on-author", approved: "", young: "waiting-on-review"})

	w.clock.Advance(lifecycle.Day)
	before := len(f.Requests())
	w.run(turnLabelInputs)
	if ws := w.writesSince(before); len(ws) != 0 {
		t.Errorf("nothing changed, yet the run wrote %v", ws)
	}
	// Every open PR's turn, young ones included, comes with the listing's
	// one page: no read of a history of its own.
	pages, histories := 0, 0
	for _, r := range f.Requests()[before:] {
		switch {
		case r.Route != "POST /graphql":
		case strings.Contains(r.Body, `"states":["OPEN"]`):
			pages++
		case strings.Contains(r.Body, "pullRequest(number:"):
			histories++
		}
	}
	if pages != 1 || histories != 0 {
		t.Errorf("%d GraphQL requests (%d history reads), want the one page of the open listing", pages, histories)
	}

	f.Push(asked, "alice", w.now(), "added a test")
	f.Label(waiting, maint, w.now(), "waiting-on-author") // "needs a rebase", by hand
	w.clock.Advance(time.Hour)
	before = len(f.Requests())
	w.run(turnLabelInputs)
	want("after the push and the hand-over", map[int]string{asked: "waiting-on-review", waiting: "waiting-on-author"})
	if ws := w.writesSince(before); len(ws) != 2 {
		t.Errorf("two changes of turn, writes %v; want one each", ws)
	}
	before = len(f.Requests())
	w.clock.Advance(time.Hour)
	w.run(turnLabelInputs)
	if ws := w.writesSince(before); len(ws) != 0 {
		t.Errorf("the labels flap between runs: %v", ws)
	}

	// A run whose one write fails leaves the labels as they were; the next
	// run finishes the change.
	f.Review(asked, maint, w.now(), "CHANGES_REQUESTED", "one more thing")
	f.InjectFault(fakegithub.FaultRule{Route: "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels", Times: -1,
		Fault: &fakegithub.Fault{Status: 500}})
	w.clock.Advance(time.Hour)
	w.run(turnLabelInputs)
	want("the swap failed", map[int]string{asked: "waiting-on-review"})
	f.ClearFaults()
	w.clock.Advance(time.Hour)
	w.run(turnLabelInputs)
	want("the next run", map[int]string{asked: "waiting-on-author"})
}

// TestTurnPersonsWord: a person taking a turn label off by hand hands the
// turn to the other party and stalepr never puts that label back while the
// turn lasts (a draft stays its author's, so its label stays off); the
// requested reviewer's own comment answers the request; a conflict does
// not overrule a person's later word.
func TestTurnPersonsWord(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	offAuthor := w.openPR(10, alice)
	f.Comment(offAuthor, maint, daysAgo(5), "could you add a test?")
	draft := w.openPR(10, alice, func(is *fakegithub.Issue) { is.Draft = true })
	conflicted := w.openPR(10, alice)
	f.Comment(conflicted, maint, daysAgo(5), "please rebase")
	reviewerSaid := w.openPR(10, alice)
	f.Review(reviewerSaid, maint, daysAgo(8), "CHANGES_REQUESTED", "please rename")
	f.Push(reviewerSaid, "alice", daysAgo(6), "rename")
	f.RequestReview(reviewerSaid, alice, daysAgo(6), maint.Login)
	inputs := sfWith(turnLabelInputs, "exempt-draft-pr", "false")
	w.run(inputs)
	labels := func(n int) string { return strings.Join(w.labels(n), ",") }
	for n, l := range map[int]string{offAuthor: "waiting-on-author", draft: "waiting-on-author", conflicted: "waiting-on-author", reviewerSaid: "waiting-on-review"} {
		if got := labels(n); got != l {
			t.Fatalf("first run: #%d labels %q, want %q", n, got, l)
		}
	}

	f.Unlabel(offAuthor, maint, w.now(), "waiting-on-author") // "this one is on us"
	f.Unlabel(draft, maint, w.now(), "waiting-on-author")
	f.Unlabel(conflicted, maint, w.now(), "waiting-on-author")
	f.Edit(conflicted, func(is *fakegithub.Issue) { is.Mergeable = "CONFLICTING" })
	f.Comment(reviewerSaid, maint, w.now(), "one more thing: the docs")
	w.clock.Advance(time.Hour)
	w.run(inputs)
	for n, c := range map[int]struct{ want, why string }{
		offAuthor:    {"waiting-on-review", "a maintainer took waiting-on-author off"},
		draft:        {"", "still a draft: its author's, the label a person removed stays off"},
		conflicted:   {"waiting-on-review", "a conflict does not overrule the later word"},
		reviewerSaid: {"waiting-on-author", "the requested reviewer's comment answered the request"},
	} {
		if got := labels(n); got != c.want {
			t.Errorf("#%d labels %q, want %q: %s", n, got, c.want, c.why)
		}
	}
}

// TestTurnConflictDatedByTheBasePush: a merge conflict puts the PR on its
// author's turn from the base's latest push (its head commit, read with the
// listing's page at no point more), not from the PR's last update: a PR
// quiet for months is not charged for them by a conflict five days old,
// and a bot's comment since does not restart a conflict twenty days old.
func TestTurnConflictDatedByTheBasePush(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	conflict := func(is *fakegithub.Issue) { is.Mergeable = "CONFLICTING" }
	quiet := w.openPR(60, alice, conflict)
	f.Push(quiet, "alice", daysAgo(60), "the work")
	commented := w.openPR(60, alice, conflict)
	f.Comment(commented, fakegithub.Bot("ci-helper[bot]"), daysAgo(3), "coverage report")
	f.PushBase("", daysAgo(20), "Merge pull request #900 from octo/refactor")
	w.run(authorTurnInputs)
	w.expectMarked(t, map[int]bool{quiet: true, commented: true},
		map[int]string{quiet: "a conflict 20 days old", commented: "a conflict 20 days old, a bot's comment since"})

	w2 := turnWorld(t)
	fresh := w2.openPR(60, alice, conflict)
	w2.fake.Push(fresh, "alice", daysAgo(60), "the work")
	w2.fake.PushBase("", daysAgo(5), "Merge pull request #901 from octo/rename")
	w2.run(authorTurnInputs)
	w2.expectMarked(t, map[int]bool{fresh: false}, map[int]string{fresh: "a conflict 5 days old on a PR quiet for 60"})
}

// TestTurnConflictAgesOnABusyBase: on a base pushed to every day, a
// conflict dated by the base's latest push never ages; stalepr's own first
// sighting (its conflict-label, added the first run that sees the conflict
// put the PR on its author's turn) stays put, so the PR is marked
// days-before-stale after it, and not a run before. Once the PR merges
// again, our label comes off.
func TestTurnConflictAgesOnABusyBase(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.openPR(60, alice, func(is *fakegithub.Issue) { is.Mergeable = "CONFLICTING" })
	f.Push(n, "alice", daysAgo(60), "the work")
	quiet := w.openPR(60, alice)
	f.Push(quiet, "alice", daysAgo(60), "the work, no conflict")
	seen := time.Time{}
	for day := 0; day <= 12; day++ {
		f.PushBase("", w.now().Add(-time.Hour), fmt.Sprintf("Merge pull request #%d from octo/daily", 900+day))
		w.run(authorTurnInputs)
		if seen.IsZero() && w.hasLabel(n, "merge-conflict") {
			seen = w.now()
		}
		due := !seen.IsZero() && w.now().After(seen.Add(10*lifecycle.Day)) // days-before-stale: 10
		if marked := w.hasLabel(n, "stale"); marked != due {
			t.Fatalf("day %d (conflict first seen %v): marked %v, want %v", day, seen, marked, due)
		}
		w.clock.Advance(lifecycle.Day)
	}
	if !seen.Equal(t0) {
		t.Errorf("the conflict was first recorded at %v, want on the first run, %v", seen, t0)
	}
	if w.hasLabel(quiet, "merge-conflict") || w.hasLabel(quiet, "stale") {
		t.Errorf("#%d merges: labels %v, want neither the record nor stale", quiet, w.labels(quiet))
	}
	if cs := f.Comments(n); len(cs) == 0 || !strings.Contains(cs[len(cs)-1].Body, "since "+t0.Format(time.DateOnly)+", with a merge conflict") {
		t.Errorf("the notice must date the conflict from its first sighting (%s):\n%v", t0.Format(time.DateOnly), cs)
	}

	f.Edit(n, func(is *fakegithub.Issue) { is.Mergeable = "MERGEABLE" })
	f.PushBase("", w.now().Add(-time.Hour), "Merge pull request #999 from octo/daily")
	w.run(authorTurnInputs)
	if w.hasLabel(n, "merge-conflict") {
		t.Errorf("#%d merges again: our record must come off, labels %v", n, w.labels(n))
	}
}

// TestCollaboratorListingFailures: who may push comes from one listing a
// run; each way it can go wrong leaves no PR decided on a guess. Refused,
// each account's permission is read instead, with the same decisions; a
// failure (a 5xx on every try, a null collaborator) leaves the PRs that
// need it untouched and the run not OK, and reads no account one by one;
// a listing longer than a page is read page by page.
func TestCollaboratorListingFailures(t *testing.T) {
	t.Parallel()
	const permissionRoute = "GET /repos/{owner}/{repo}/collaborators/{username}/permission"
	cases := []struct {
		name    string
		setup   func(w *world)
		tap     func(doc string, body []byte) []byte
		failed  bool
		perAcct int // permission reads
		extra   int // accounts with a role besides the commenters, for pages
		pages   int
	}{
		{name: "listed", pages: 1},
		{name: "refused", setup: func(w *world) { w.fake.SetCollaboratorsForbidden(true) }, perAcct: 2, pages: 1},
		{name: "refused as not found", tap: refuseCollaborators("NOT_FOUND"), perAcct: 2, pages: 1},
		{name: "refused for the token's scopes", tap: refuseCollaborators("INSUFFICIENT_SCOPES"), perAcct: 2, pages: 1},
		{name: "an error of another type", tap: refuseCollaborators("SERVICE_UNAVAILABLE"), failed: true, pages: 1},
		{name: "5xx on every try", setup: func(w *world) {
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if strings.Contains(r.Body, "collaborators(") {
					return fakegithub.ServerError(502)
				}
				return nil
			})
		}, failed: true},
		{name: "a null collaborator", tap: func(doc string, body []byte) []byte {
			if strings.Contains(doc, "collaborators(") {
				return nullLast(body, "collaborators", "edges")
			}
			return body
		}, failed: true, pages: 1},
		{name: "three pages", extra: 230, pages: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			f := w.fake
			for i := range tc.extra {
				f.SetPermission(fmt.Sprintf("collaborator%03d", i), "triage")
			}
			member, writer := w.memberAndWriter()
			if tc.setup != nil {
				tc.setup(w)
			}
			inputs := sfWith(authorTurnInputs, "write-interval", "0s")
			var res sweep.Result
			if tc.tap != nil {
				res = w.runTapped(inputs, tc.tap)
			} else {
				res = w.run(inputs)
			}
			if tc.failed {
				for _, n := range []int{member, writer} {
					if len(w.writesTo(n)) != 0 || !has(res.Failed(), n) {
						t.Errorf("#%d: the listing failed; want it untouched and failed, got writes %v, failed %v", n, w.writesTo(n), numbers(res.Failed()))
					}
				}
				if res.OK() {
					t.Error("OK() with the collaborator listing failed")
				}
			} else {
				w.expectMarked(t, map[int]bool{member: false, writer: true},
					map[int]string{member: "an org member without write access commented", writer: "a writer with association CONTRIBUTOR commented"})
			}
			if got := f.CountBy()[permissionRoute]; got != tc.perAcct {
				t.Errorf("%d permission reads, want %d", got, tc.perAcct)
			}
			if tc.pages > 0 && collaboratorQueries(w) != tc.pages {
				t.Errorf("%d collaborator queries, want %d", collaboratorQueries(w), tc.pages)
			}
		})
	}
}

// refuseCollaborators answers the collaborator listing as GitHub refuses a
// field: null, with an error of type typ on its path.
func refuseCollaborators(typ string) func(doc string, body []byte) []byte {
	return func(doc string, body []byte) []byte {
		if !strings.Contains(doc, "collaborators(") {
			return body
		}
		var v map[string]any
		if json.Unmarshal(body, &v) != nil {
			return body
		}
		if data, ok := v["data"].(map[string]any); ok {
			if repo, ok := data["repository"].(map[string]any); ok {
				repo["collaborators"] = nil
			}
		}
		v["errors"] = []any{map[string]any{"type": typ, "path": []any{"repository", "collaborators"},
			"locations": []any{map[string]any{"line": 1, "column": 2}}, "message": "refused (" + typ + ")"}}
		out, _ := json.Marshal(v)
		return out
	}
}

// TestMergeNudgeIgnoresTheReviewMessage: a project's own
// review-nudge-message is the reviewers' turn's; an approved PR nobody
// merges gets the merge nudge, which names the merge, not a review.
func TestMergeNudgeIgnoresTheReviewMessage(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	approved := w.openPR(40, alice)
	w.fake.Review(approved, maint, daysAgo(30), "APPROVED", "lgtm")
	waiting := w.openPR(40, alice)
	inputs := map[string]string{"review-nudge-message": "{{reviewers}} Waiting {{days-waiting}} days for a review: please take a look."}
	for k, v := range nudgeInputs {
		inputs[k] = v
	}
	w.run(inputs)
	if w.notices(approved, "nudge") != 1 || w.notices(waiting, "nudge") != 1 {
		t.Fatalf("nudges: %d on the approved PR, %d on the one waiting for a review; want 1 each", w.notices(approved, "nudge"), w.notices(waiting, "nudge"))
	}
	if body := w.fake.Comments(approved)[0].Body; !strings.Contains(body, "waiting 30 days to be merged") || strings.Contains(body, "review") {
		t.Errorf("the nudge on the approved PR does not name the merge:\n%s", body)
	}
	if body := w.fake.Comments(waiting)[0].Body; !strings.Contains(body, "please take a look") {
		t.Errorf("the nudge on the reviewers' turn is not the project's own:\n%s", body)
	}
}
