package sweep_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

// A value GitHub may answer null is an unknown, never a no: no labels, no
// history, no access, never updated. Each test gives one such null as
// GitHub would send it, through the fake, and the PR it hides a fact of is
// left untouched (reported failed), never decided on the zero value.

// onPRs hands every pull request object of a GraphQL answer (each of our
// queries reads a PR's timeline) to edit.
func onPRs(body []byte, edit func(pr map[string]any)) []byte {
	return onObjects(body, func(x map[string]any) {
		if _, timeline := x["timelineItems"]; timeline {
			edit(x)
		}
	})
}

// nullOnPages sets field of every PR of the listing pages null.
func nullOnPages(field string) func(doc string, body []byte) []byte {
	return func(doc string, body []byte) []byte {
		if !strings.Contains(doc, "pullRequests(") {
			return body
		}
		return onPRs(body, func(pr map[string]any) { pr[field] = nil })
	}
}

// wantUntouched fails unless PR n got no write and is reported failed with
// an error naming what GitHub answered null.
func wantUntouched(t *testing.T, w *world, failed []int, errs map[int]string, n int, names string) {
	t.Helper()
	if got := w.writesTo(n); len(got) != 0 || w.state(n) != "open" {
		t.Fatalf("#%d: state %s, writes %v; want it untouched", n, w.state(n), got)
	}
	if !slices.Contains(failed, n) {
		t.Fatalf("#%d: want it reported failed (left untouched), got failed %v", n, failed)
	}
	if !strings.Contains(errs[n], names) {
		t.Errorf("#%d: error %q does not name %q", n, errs[n], names)
	}
}

// TestNullFactOnTheListingIsUnknown: a PR whose listing gives one of the
// facts the rules read as null is not decided on its zero value: a zero
// update time is not years of inactivity, null labels or assignees are not
// "no exempt one", a null isDraft or locked is not "neither", a null
// timeline is not a history without last week's reopening.
func TestNullFactOnTheListingIsUnknown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		field  string
		inputs []string
		add    func(w *world) int
		tap    func(doc string, body []byte) []byte // nil: the field null on the pages
	}{
		{"updatedAt", nil, func(w *world) int { return w.pr(1) }, nil},
		{"createdAt", []string{"ignore-updates", "true"}, func(w *world) int { return w.pr(1, func(is *fakegithub.Issue) { is.CreatedAt = daysAgo(2) }) }, nil},
		{"labels", []string{"exempt-pr-labels", "keep-open"}, func(w *world) int { return w.pr(200, withLabels("keep-open")) }, nil},
		{"assignees", []string{"exempt-pr-assignees", "bob"}, func(w *world) int { return w.pr(200, assignedTo("bob")) }, nil},
		{"isDraft", []string{"exempt-draft-pr", "true"}, func(w *world) int { return w.pr(200, func(is *fakegithub.Issue) { is.Draft = true }) }, nil},
		{"locked", nil, func(w *world) int { return w.pr(200, locked) }, nil},
		{"timelineItems", []string{"ignore-updates", "true"}, func(w *world) int {
			n := w.pr(90)
			w.fake.Close(n, maint, daysAgo(6), "")
			w.fake.Reopen(n, alice, daysAgo(5)) // its age counts from here
			return n
		}, nil},
		{"undated", []string{"ignore-updates", "true"}, func(w *world) int {
			n := w.pr(90)
			w.fake.Close(n, maint, daysAgo(6), "")
			w.fake.Reopen(n, alice, daysAgo(5))
			return n
		}, func(doc string, body []byte) []byte {
			return nullItemField(nullItemField(body, "ClosedEvent", "createdAt"), "ReopenedEvent", "createdAt")
		}},
	} {
		t.Run(tc.field, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := tc.add(w)
			tap := tc.tap
			if tap == nil {
				tap = nullOnPages(tc.field)
			}
			res := w.runTapped(sfWith(sfQuick, tc.inputs...), tap)
			wantUntouched(t, w, numbers(res.Failed()), errsOf(res.Failed()), n, tc.field)
		})
	}
}

// nullItemField sets field of every timeline item of kind (its __typename)
// null.
func nullItemField(body []byte, kind, field string) []byte {
	return onPRs(body, func(pr map[string]any) {
		items, _ := pr["timelineItems"].(map[string]any)
		nodes, _ := items["nodes"].([]any)
		for _, it := range nodes {
			if it, ok := it.(map[string]any); ok && it["__typename"] == kind {
				it[field] = nil
			}
		}
	})
}

// TestNullLabelsOnTheFreshReadIsUnknown: the writes that replace a PR's
// label set compute it from a read just before them. A fresh read with
// labels null (or left out) is no PR without labels: a close (here one
// without a mark, days-before-close 0) would write close-pr-label alone and
// remove the maintainer's labels, a mark with labels-to-remove-when-stale
// would too. Nor is a null lock state "not locked". Each is a failed read.
func TestNullLabelsOnTheFreshReadIsUnknown(t *testing.T) {
	t.Parallel()
	closeNow := []string{"days-before-close", "0", "close-pr-label", "closed-as-stale"}
	markSwap := []string{"labels-to-remove-when-stale", "needs-work"}
	for _, tc := range []struct {
		name   string
		inputs []string
		edit   func(pr map[string]any)
	}{
		{"labels null, a close", closeNow, func(pr map[string]any) { pr["labels"] = nil }},
		{"labels left out, a close", closeNow, func(pr map[string]any) { delete(pr, "labels") }},
		{"labels null, a mark that swaps labels", markSwap, func(pr map[string]any) { pr["labels"] = nil }},
		{"locked null, a close", closeNow, func(pr map[string]any) { pr["locked"] = nil }},
		{"assignees null, a close", closeNow, func(pr map[string]any) { pr["assignees"] = nil }},
		{"timeline null, a close", closeNow, func(pr map[string]any) { pr["timelineItems"] = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.pr(100, withLabels("security", "needs-work"))
			res := w.runTapped(sfWith(sfQuick, tc.inputs...), freshAnswers(tc.edit))
			if got := w.labels(n); !slices.Contains(got, "security") {
				t.Errorf("#%d: labels %v, the maintainer's security label is gone", n, got)
			}
			wantUntouched(t, w, numbers(res.Failed()), errsOf(res.Failed()), n, "null")
		})
	}
}

// TestNullUpdateTimeOnTheFreshReadIsUnknown: the close reads the PR again
// and leaves it when it was updated after the listing. An update time
// GitHub answers null (or leaves out) is after nothing, so "not updated
// since" would be concluded from no answer: the PR is kept for the next
// run, as a failed read keeps it, which closes it on a full answer.
func TestNullUpdateTimeOnTheFreshReadIsUnknown(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(map[string]any){
		"null":     func(pr map[string]any) { pr["updatedAt"] = nil },
		"left out": func(pr map[string]any) { delete(pr, "updatedAt") },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(31)
			// The close's read: a person commented since the listing, and
			// GitHub's answer does not say when the PR was updated.
			hook := &hookBase{match: isNowRead, hook: func() { w.fake.Comment(n, alice, w.now(), "still on it") }}
			res := w.sfRun(sfQuick, sfOpts{base: &tapAnswers{base: hook, tap: freshAnswers(edit)}})
			if c := w.notices(n, "close"); c != 0 || w.state(n) != "open" {
				t.Fatalf("#%d %s with %d closing comments; want it open: its update time is unknown", n, w.state(n), c)
			}
			wantUntouched(t, w, numbers(res.Failed()), errsOf(res.Failed()), n, "no updatedAt")
			// The next run reads it whole and decides on the comment.
			w.clock.Advance(time.Hour)
			w.run(sfQuick)
			if w.state(n) != "open" || w.hasLabel(n, "stale") {
				t.Errorf("next run: #%d %s labels %v, want open and un-staled", n, w.state(n), w.labels(n))
			}
		})
	}
}

// TestTimelineWithoutACursorToItsOlderItemsIsUnknown: a page of a PR's
// history that says there are older items (hasPreviousPage, or a
// totalCount above the items it holds) and gives no startCursor is not the
// whole history. Under activity-from: people, a person's comment before the
// newest 100 items (a bot's) is not "no person for 100 days": the PR is
// not marked on the part it was given, on the listing page or on a read
// of the older history alike.
func TestTimelineWithoutACursorToItsOlderItemsIsUnknown(t *testing.T) {
	t.Parallel()
	noCursor := func(pr map[string]any) {
		pr["timelineItems"].(map[string]any)["pageInfo"].(map[string]any)["startCursor"] = nil
	}
	for _, tc := range []struct {
		name    string
		history bool // on the second page of the history, not the listing's
		edit    func(pr map[string]any)
		names   string
	}{
		{"listing page, hasPreviousPage", false, noCursor, "no cursor"},
		{"listing page, totalCount", false, func(pr map[string]any) {
			noCursor(pr)
			pr["timelineItems"].(map[string]any)["pageInfo"].(map[string]any)["hasPreviousPage"] = false
		}, "no cursor"},
		{"older history, hasPreviousPage", true, noCursor, "no cursor"},
		{"older history, timeline null", true, func(pr map[string]any) { pr["timelineItems"] = nil }, "timeline null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.pr(90)
			w.fake.Comment(n, bob, daysAgo(5), "I need this, please keep it")
			newer := 100
			if tc.history {
				newer = 200
			}
			for i := range newer {
				w.fake.Comment(n, ci, daysAgo(3).Add(time.Duration(i)*time.Second), "build passed")
			}
			res := w.runTapped(sfWith(sfQuick, "activity-from", "people"), func(doc string, body []byte) []byte {
				if strings.Contains(doc, "pullRequests(") == tc.history || !strings.Contains(doc, "timelineItems(") {
					return body
				}
				if tc.history && !strings.Contains(string(body), `"hasPreviousPage":true`) {
					return body // the oldest page: nothing to hide
				}
				return onPRs(body, tc.edit)
			})
			wantUntouched(t, w, numbers(res.Failed()), errsOf(res.Failed()), n, tc.names)
		})
	}
}

// TestShortCollaboratorListingIsNoNo: a collaborator listing that ends
// short (its last page holds fewer accounts than its own totalCount, or a
// page says there is more and gives neither a cursor nor a count) is not
// the whole list: an account it lacks may push all the same, and its
// permission is read, not taken as none. Here a maintainer
// (CONTRIBUTOR by association, so only GitHub's answer tells) moved the
// review on after another maintainer's change request: the PR waits on its
// reviewers, and taking her for a stranger marked it on the author's clock.
func TestShortCollaboratorListingIsNoNo(t *testing.T) {
	t.Parallel()
	for name, short := range map[string]func(c map[string]any){
		"fewer than its totalCount": func(map[string]any) {},
		"more said, no cursor nor count": func(c map[string]any) {
			c["totalCount"] = nil
			c["pageInfo"] = map[string]any{"hasNextPage": true, "endCursor": nil}
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			f := w.fake
			quiet := fakegithub.Person("quiet")
			f.SetPermission(quiet.Login, "write")
			n := w.openPR(60, alice)
			f.Review(n, mia, daysAgo(40), "CHANGES_REQUESTED", "please rename")
			f.Comment(n, quiet, daysAgo(20), "I'll take this one")
			f.RequestReview(n, quiet, daysAgo(20), maint.Login)
			res := w.runTapped(sfWith(authorTurnInputs, "write-interval", "0s"), func(doc string, body []byte) []byte {
				if !strings.Contains(doc, "collaborators(") {
					return body
				}
				return editCollaborators(body, func(c map[string]any) {
					dropCollaborator(c, quiet.Login)
					short(c)
				})
			})
			if w.hasLabel(n, "stale") || has(res.Marked(), n) {
				t.Fatalf("#%d, waiting on the review a maintainer the short listing left out asked for, was marked stale", n)
			}
			if got := f.CountBy()["GET /repos/{owner}/{repo}/collaborators/{username}/permission"]; got != 1 {
				t.Errorf("%d permission reads, want 1: the account the listing lacks", got)
			}
			if !res.OK() {
				t.Errorf("failed %v: a short listing is no failed read", errsOf(res.Failed()))
			}
		})
	}
}

// TestNullPushAccessOfAReviewIsUnknown: a review's authorCanPushToRepository
// answered null is not "cannot push": what else the run knows of the
// account decides, as for any account whose access GitHub did not tell. A
// maintainer's approval of the PR she had asked changes of, taken for a
// stranger's, left her change request standing and the PR on the author's
// turn, and marked it.
func TestNullPushAccessOfAReviewIsUnknown(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.openPR(60, alice)
	f.Review(n, mia, daysAgo(40), "CHANGES_REQUESTED", "please rename")
	f.Review(n, mia, daysAgo(20), "APPROVED", "fine as it is, I'll merge it")
	res := w.runTapped(sfWith(authorTurnInputs, "write-interval", "0s"), func(doc string, body []byte) []byte {
		return onPRs(body, func(pr map[string]any) {
			items, _ := pr["timelineItems"].(map[string]any)
			nodes, _ := items["nodes"].([]any)
			for _, it := range nodes {
				if it, ok := it.(map[string]any); ok && it["state"] == "APPROVED" {
					it["authorCanPushToRepository"] = nil
				}
			}
		})
	})
	if w.hasLabel(n, "stale") || has(res.Marked(), n) {
		t.Fatalf("#%d, approved by the maintainer who asked for changes (her push access answered null), was marked stale", n)
	}
}

// editCollaborators hands the collaborators connection of a GraphQL
// answer to edit.
func editCollaborators(body []byte, edit func(c map[string]any)) []byte {
	var v map[string]any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	data, _ := v["data"].(map[string]any)
	repo, _ := data["repository"].(map[string]any)
	if c, ok := repo["collaborators"].(map[string]any); ok {
		edit(c)
	}
	out, _ := json.Marshal(v)
	return out
}

// dropCollaborator takes login's edge out of a collaborators connection and
// leaves its totalCount: the listing ends short of its own count.
func dropCollaborator(c map[string]any, login string) {
	edges, _ := c["edges"].([]any)
	kept := edges[:0]
	for _, e := range edges {
		if node, _ := e.(map[string]any)["node"].(map[string]any); !strings.EqualFold(fmt.Sprint(node["login"]), login) {
			kept = append(kept, e)
		}
	}
	c["edges"] = kept
}

// errsOf is each failed item's error, by PR number.
func errsOf(items []sweep.Item) map[int]string {
	out := map[int]string{}
	for _, it := range items {
		out[it.Number] = it.Err
	}
	return out
}

// freshAnswers hands each PR of a fresh read's answer (the look at the
// PRs about to be written to) to edit, and leaves every other answer as it is.
func freshAnswers(edit func(pr map[string]any)) func(doc string, body []byte) []byte {
	return func(doc string, body []byte) []byte {
		if !strings.Contains(doc, "f0: pullRequest(") {
			return body
		}
		return onPRs(body, edit)
	}
}
