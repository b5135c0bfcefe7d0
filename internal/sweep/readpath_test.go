package sweep_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

// GitHub's real answer shapes on the GraphQL read path never lead
// to a wrong close.

// tapAnswers is a base transport that hands every GraphQL answer the fake
// gives to tap, with the query document it answers, and sends on what tap
// returns: a test's way to give GitHub's shapes the fake does not make (a
// null timeline item) or to act between two pages.
type tapAnswers struct {
	mu   sync.Mutex
	base http.RoundTripper
	tap  func(doc string, body []byte) []byte
}

func (t *tapAnswers) RoundTrip(r *http.Request) (*http.Response, error) {
	doc := graphqlDoc(r)
	resp, err := t.base.RoundTrip(r)
	if err != nil || doc == "" {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	body = t.tap(doc, body)
	t.mu.Unlock()
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// runTapped is world.run with every GraphQL answer passed through tap.
func (w *world) runTapped(inputs map[string]string, tap func(doc string, body []byte) []byte) sweep.Result {
	w.t.Helper()
	return w.sfRun(inputs, sfOpts{base: &tapAnswers{base: w.fake.Transport(), tap: tap}})
}

// nullNode sets the last node of every connection named conn in the answer
// (timelineItems, labels) to null, as GitHub answers a node it failed to
// resolve, without an error.
func nullNode(body []byte, conn string) []byte { return nullLast(body, conn, "nodes") }

// nullLast sets the last element of list (nodes, edges) of every
// connection named conn in the answer to null.
func nullLast(body []byte, conn, list string) []byte {
	return onObjects(body, func(x map[string]any) {
		if c, ok := x[conn].(map[string]any); ok {
			if nodes, ok := c[list].([]any); ok && len(nodes) > 0 {
				nodes[len(nodes)-1] = nil
			}
		}
	})
}

// onObjects hands every JSON object of a GraphQL answer, outermost first,
// to edit, and gives the answer back edited (as it came when it is no JSON).
func onObjects(body []byte, edit func(map[string]any)) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			edit(x)
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	out, _ := json.Marshal(v)
	return out
}

// Item 1: GraphQL names a deleted account's comment, review or push with a
// null author (REST said "ghost"). Such an actor is a person: in doubt,
// activity, and the PR is not closed.
func TestDeletedAccountsActivityKeepsThePROpen(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ghost := fakegithub.Person("ghost") // the fake answers null for it, as GitHub does
	commented := w.markedPR(40)
	w.fake.Comment(commented, ghost, daysAgo(5), "I still want this")
	reviewed := w.markedPR(40)
	w.fake.Review(reviewed, ghost, daysAgo(5), "COMMENTED", "looks fine")
	pushed := w.markedPR(40)
	w.fake.ForcePush(pushed, ghost, daysAgo(5))
	due := w.markedPR(40) // nothing since the mark: closed, so the run did act
	res := w.run(sfQuick)
	for _, n := range []int{commented, reviewed, pushed} {
		if w.state(n) != "open" || has(res.Closed(), n) {
			t.Errorf("#%d, active by a deleted account after the mark, was closed", n)
		}
		if !has(res.Unstaled(), n) || w.hasLabel(n, "stale") {
			t.Errorf("#%d: want it un-staled for the deleted account's activity, labels %v", n, w.labels(n))
		}
	}
	if !has(res.Closed(), due) {
		t.Errorf("#%d, inactive since its mark, was not closed: %v", due, numbers(res.Closed()))
	}
}

// Item 2: a null item of a PR's timeline (on its listing page, or on a read
// of its older history) is a part of its facts GitHub did not give: that PR
// is not decided this run, as a null PR node is not.
func TestNullTimelineItemLeavesThePRUndecided(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		history bool // the null is on a read of the older history, not the page
	}{{"on the listing page", false}, {"on the history read", true}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(40)
			w.fake.Comment(n, bob, daysAgo(5), "please keep it") // the item GitHub nulls
			if tt.history {
				// 100 newer items by a bot: the page holds those, and the
				// comment is read with the history before them.
				for i := 0; i < 100; i++ {
					w.fake.Comment(n, ci, daysAgo(3).Add(-time.Duration(i)*time.Second), "build passed")
				}
			}
			res := w.runTapped(sfQuick, func(doc string, body []byte) []byte {
				isPage := strings.Contains(doc, "pullRequests(")
				if isPage == tt.history {
					return body
				}
				return nullNode(body, "timelineItems")
			})
			if w.state(n) != "open" || has(res.Closed(), n) || len(w.writesTo(n)) != 0 {
				t.Fatalf("#%d with a null timeline item: state %s, writes %v; want it untouched", n, w.state(n), w.writesTo(n))
			}
			if !has(res.Failed(), n) {
				t.Errorf("#%d: want it reported failed (left untouched), got failed %v", n, numbers(res.Failed()))
			}
		})
	}
}

// Item 3: keyset pages list a PR twice when it changes during the listing.
// The newer copy, with the comment that came between two pages, is the one
// decided: the PR is not closed on the older copy.
func TestPRListedTwiceIsDecidedOnItsNewerCopy(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var marked []int
	for i := 0; i < 6; i++ {
		marked = append(marked, w.markedPR(40+float64(i)))
	}
	first := marked[5] // the least recently updated: on the first page
	// Timeouts shrink the pages to 2 PRs, as after GitHub's 502s.
	w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Times: -1, Fault: fakegithub.TimeoutGraphQL(2)})
	pages := 0
	res := w.runTapped(sfQuick, func(doc string, body []byte) []byte {
		if strings.Contains(doc, "pullRequests(") && !bytes.Contains(body, []byte(`"errors"`)) {
			if pages++; pages == 1 {
				// Between the first page and the second, the author answers.
				w.fake.Comment(first, alice, w.now(), "rebased, ptal")
			}
		}
		return body
	})
	if w.state(first) != "open" || has(res.Closed(), first) {
		t.Fatalf("#%d, answered during the listing, was closed on its older copy", first)
	}
	if !has(res.Unstaled(), first) {
		t.Errorf("#%d: want it un-staled on its newer copy; outcomes %+v", first, res.Items)
	}
	for _, n := range marked[:5] {
		if !has(res.Closed(), n) {
			t.Errorf("#%d, inactive since its mark, was not closed", n)
		}
	}
	if res.Considered != len(marked) {
		t.Errorf("considered %d PRs, want %d: a PR listed twice counts once", res.Considered, len(marked))
	}
}

// Item 12: a null label node might be an exempt label: the PR is not
// marked on the labels that are left, and the log says why (not "more
// labels than one page", which the count alone would suggest).
func TestNullLabelLeavesThePRUndecided(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(200, func(is *fakegithub.Issue) { is.Labels = []string{"keep-open"} })
	res := w.runTapped(sfWith(sfQuick, "exempt-pr-labels", "keep-open"), func(doc string, body []byte) []byte {
		return nullNode(body, "labels")
	})
	if got := w.writesTo(n); len(got) != 0 || has(res.Marked(), n) {
		t.Fatalf("#%d, whose exempt label GitHub answered null, got writes %v; want none", n, got)
	}
	failed := res.Failed()
	if len(failed) != 1 || failed[0].Number != n || !strings.Contains(failed[0].Err, "null labels") {
		t.Errorf("want #%d reported failed for its null label (not for a second page of labels), got %+v", n, failed)
	}
}

// Item 4: only GitHub's refusal of the permission read (403, what a token
// without push access gets) lets author_association decide; any other
// failure leaves the PRs that need the answer untouched and the run not OK,
// as every failed read does, and the account is not asked again.
func TestFailedPermissionReadLeavesThePRUntouched(t *testing.T) {
	t.Parallel()
	const route = "GET /repos/{owner}/{repo}/collaborators/{username}/permission"
	for _, tt := range []struct {
		name     string
		fault    *fakegithub.Fault
		fallback bool // author_association decides: MEMBER, a maintainer
	}{
		{"refused", fakegithub.StatusFault(403, `{"message":"Must have push access to view collaborator permission.","documentation_url":"https://docs.github.com/rest"}`), true},
		{"502", fakegithub.StatusFault(502, ""), false},
		{"undecodable", fakegithub.StatusFault(200, `{"permission":`), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			orgmate := fakegithub.Person("orgmate")
			w.fake.AddMember(orgmate.Login)
			w.fake.SetPermission(orgmate.Login, "read") // a member, no role here: not a maintainer
			w.fake.SetCollaboratorsForbidden(true)      // the listing refused: each account is read
			w.fake.InjectFault(fakegithub.FaultRule{Route: route, Times: -1, Fault: tt.fault})
			first := w.openPR(60, alice)
			w.fake.Comment(first, orgmate, daysAgo(30), "+1, we need this")
			second := w.openPR(60, alice)
			w.fake.Comment(second, orgmate, daysAgo(30), "+1")
			res := w.run(sfWith(authorTurnInputs, "write-interval", "0s"))
			asked := w.fake.CountBy()[route]
			for _, n := range []int{first, second} {
				switch {
				case tt.fallback && !has(res.Marked(), n):
					t.Errorf("#%d: GitHub refused the permission read; want author_association (MEMBER) to decide: marked", n)
				case !tt.fallback && (len(w.writesTo(n)) != 0 || !has(res.Failed(), n)):
					t.Errorf("#%d: the permission read failed; want it untouched and failed, got writes %v, failed %v", n, w.writesTo(n), numbers(res.Failed()))
				}
			}
			if res.OK() == !tt.fallback {
				t.Errorf("OK() = %v with the permission read %s", res.OK(), tt.name)
			}
			if tt.fallback && asked != 1 || !tt.fallback && asked > 6 {
				t.Errorf("%d permission requests; want 1 when refused (no more asked that run), at most one attempt's retries when it fails", asked)
			}
		})
	}
}

// Item 6: a maintainer deletes stalepr's notice. GitHub keeps a
// CommentDeletedEvent naming its author in the notice's place, and
// updated_at moves; nobody answered the PR, so it is not un-staled: the
// author is told again, and the close waits a full window from then.
func TestDeletedNoticeIsPostedAgainAndTheCloseWaits(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	deleted := w.markedPR(40)
	w.fake.DeleteComment(w.noticeOf(deleted), maint, daysAgo(2))
	other := w.markedPR(40) // a maintainer deleted someone else's comment: in doubt, activity
	spam := w.fake.Comment(other, bob, daysAgo(3), "buy now")
	w.fake.DeleteComment(spam.ID, maint, daysAgo(2))
	res := w.run(sfQuick)
	if w.state(deleted) != "open" || !w.hasLabel(deleted, "stale") || has(res.Unstaled(), deleted) {
		t.Fatalf("#%d, whose notice a maintainer deleted: state %s, labels %v, un-staled %v; want it open and still stale",
			deleted, w.state(deleted), w.labels(deleted), has(res.Unstaled(), deleted))
	}
	if got := w.notices(deleted, "stale"); got != 1 || !has(res.Marked(), deleted) {
		t.Fatalf("#%d: %d stale notices after the run (told again: %v); want the notice posted again, once", deleted, got, has(res.Marked(), deleted))
	}
	if !has(res.Unstaled(), other) {
		t.Errorf("#%d: a maintainer deleted a person's comment after the mark; want it un-staled (in doubt, activity)", other)
	}
	for _, tt := range []struct {
		days   int
		closed bool
	}{{29, false}, {31, true}} {
		w.clock.Set(t0.Add(time.Duration(tt.days) * 24 * time.Hour))
		w.run(sfQuick)
		if got := w.state(deleted) == "closed"; got != tt.closed {
			t.Errorf("%d days after the notice was posted again: closed %v, want %v", tt.days, got, tt.closed)
		}
	}
	if got := w.notices(deleted, "stale"); got != 1 {
		t.Errorf("#%d: %d stale notices in all; want one", deleted, got)
	}
}

// noticeOf is the ID of stalepr's stale notice on PR n.
func (w *world) noticeOf(n int) int64 {
	for _, c := range w.fake.Comments(n) {
		if strings.Contains(c.Body, "<!-- stalepr:stale") {
			return c.ID
		}
	}
	w.t.Fatalf("#%d has no stale notice", n)
	return 0
}

// Item 9: actions/stale with no close-pr-message (GitHub's starter
// workflow) closes with a bare PATCH as github-actions[bot] and leaves its
// stale label on. That is a stale bot's close: the audit replays it, and
// the label clean-up keeps the label, the only record of why it was closed.
// A person's close of a stale PR still loses the label.
func TestBareStaleBotCloseIsAuditedAndKeepsItsLabel(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	bare := w.openPR(120, alice)
	w.fake.Label(bare, action, daysAgo(40), "stale")
	w.fake.Close(bare, action, daysAgo(1), "")
	byPerson := w.openPR(120, alice)
	w.fake.Label(byPerson, action, daysAgo(40), "stale")
	w.fake.Close(byPerson, maint, daysAgo(1), "")
	res := w.run(auditWith())
	if !slices.Contains(res.WronglyClosed(), bare) {
		t.Errorf("#%d, closed bare by a stale bot while it waited on its reviewers: not in the audit (%v)", bare, res.WronglyClosed())
	}
	if !w.hasLabel(bare, "stale") || has(res.Cleaned(), bare) {
		t.Errorf("#%d: the stale bot's label was taken off (%v) as if a person closed it", bare, w.labels(bare))
	}
	if w.hasLabel(byPerson, "stale") || !has(res.Cleaned(), byPerson) {
		t.Errorf("#%d, closed by a person: want its stale label off, labels %v", byPerson, w.labels(byPerson))
	}
}

// Item 8: a PR closed as stale, reopened, then closed by a maintainer while
// the old close-pr-label lingers is the maintainer's deliberate close: never
// audited, never reopened.
func TestMaintainersCloseIsNotAudited(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.ghaClosed(120, 20) // closed as stale; close-pr-label on
	w.fake.Reopen(n, alice, daysAgo(15))
	w.fake.Comment(n, alice, daysAgo(15), "reopening: still wanted")
	w.fake.Close(n, maint, daysAgo(2), "")
	res := w.run(auditWith("reopen-wrongly-closed", "true"))
	if w.state(n) != "closed" || slices.Contains(res.WronglyClosed(), n) || w.notices(n, "reopened") != 0 {
		t.Errorf("#%d, closed by a maintainer: state %s, audited %v; want it left closed and not audited", n, w.state(n), res.WronglyClosed())
	}
}
