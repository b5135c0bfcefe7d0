package sweep_test

// actions/stale's own test suite (github.com/actions/stale, __tests__ at
// 9461cb10), the cases about pull requests or generic ones that apply to
// them, replayed on stalepr end to end. Each row names the test it comes
// from and asserts what that test asserts (marked, closed, stale label
// removed, comments), translated to stalepr's defaults (90 days before
// stale, 30 before close, label "stale") where only the defaults differ,
// and to a person's activity where actions/stale's test says "updated" or
// "a comment": only a person's activity counts in stalepr (the migration
// table, "Who keeps a stale PR alive"). Intentional differences that the
// migration table documents are noted where a row would meet one.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// parityWant is what one actions/stale test asserts about its PR.
type parityWant struct {
	marked   bool // listed in staled-issues-prs by this run (staleIssues)
	closed   bool // listed in closed-issues-prs by this run (closedIssues)
	unstaled bool // the stale label taken off (removedLabelIssues, for the stale label)
}

type parityCase struct {
	from   string // actions/stale: file and test name
	inputs map[string]string
	setup  func(w *world) int
	want   parityWant
	check  func(t *testing.T, w *world, n int) // more assertions, optional
}

// markedAs is markedPR with another stale label: stalepr marked it d days
// ago with label and its notice.
func markedAs(w *world, d float64, label string, mod ...func(*fakegithub.Issue)) int {
	n := w.pr(d+90, mod...)
	at := daysAgo(d)
	w.fake.Label(n, action, at, label)
	w.fake.Comment(n, action, at.Add(time.Second), "This PR is stale.\n\n<!-- stalepr:stale marked="+at.Format(time.RFC3339)+
		" head="+w.fake.MustIssue(n).HeadSHA+" -->")
	return n
}

// labelledBy is a PR inactive since long before, given label d days ago by
// u (a maintainer's label, or another bot's: no notice of stalepr's).
func labelledBy(w *world, d float64, u fakegithub.User, label string, mod ...func(*fakegithub.Issue)) int {
	n := w.pr(d+90, mod...)
	w.fake.Label(n, u, daysAgo(d), label)
	return n
}

func withLabels(labels ...string) func(*fakegithub.Issue) {
	return func(is *fakegithub.Issue) { is.Labels = append(is.Labels, labels...) }
}

func assignedTo(logins ...string) func(*fakegithub.Issue) {
	return func(is *fakegithub.Issue) { is.Assignees = logins }
}

func draft(is *fakegithub.Issue) { is.Draft = true }

func closedPR(is *fakegithub.Issue) { is.State, is.ClosedAt = "closed", is.UpdatedAt }

// commentedBy adds a comment by u d days ago to a PR set up by setup.
func commentedBy(setup func(w *world) int, u fakegithub.User, d float64) func(w *world) int {
	return func(w *world) int {
		n := setup(w)
		w.fake.Comment(n, u, daysAgo(d), "a comment")
		return n
	}
}

func prAged(d float64, mod ...func(*fakegithub.Issue)) func(w *world) int {
	return func(w *world) int { return w.pr(d, mod...) }
}

func marked(d float64, mod ...func(*fakegithub.Issue)) func(w *world) int {
	return func(w *world) int { return w.markedPR(d, mod...) }
}

// justOver is a time "d days ago" as actions/stale's tests make it: taken
// before the run, so the run finds it a moment more than d days old.
func justOver(d float64) float64 { return d + 1.0/86400 }

func hasLabelNamed(label string) func(t *testing.T, w *world, n int) {
	return func(t *testing.T, w *world, n int) {
		t.Helper()
		if !w.hasLabel(n, label) {
			t.Errorf("labels %v, want %q", w.labels(n), label)
		}
	}
}

func lacksLabel(label string) func(t *testing.T, w *world, n int) {
	return func(t *testing.T, w *world, n int) {
		t.Helper()
		if w.hasLabel(n, label) {
			t.Errorf("labels %v, want no %q", w.labels(n), label)
		}
	}
}

func commentCount(want int) func(t *testing.T, w *world, n int) {
	return func(t *testing.T, w *world, n int) {
		t.Helper()
		if got := len(w.fake.Comments(n)); got != want {
			t.Errorf("%d comments, want %d", got, want)
		}
	}
}

func noWrites(t *testing.T, w *world, n int) {
	t.Helper()
	if got := w.writesTo(n); len(got) != 0 {
		t.Errorf("writes %v, want none", got)
	}
}

func both(checks ...func(t *testing.T, w *world, n int)) func(t *testing.T, w *world, n int) {
	return func(t *testing.T, w *world, n int) {
		t.Helper()
		for _, c := range checks {
			c(t, w, n)
		}
	}
}

const mainSpec = "main.spec.ts: "

// zeroDayClose: with days-before-close 0, actions/stale marks (label and
// stale comment) and closes in one run, and lists the PR in both
// staleIssues and closedIssues. stalepr closes it in that run with its
// closing comment only (no stale notice announcing an immediate close, no
// stale label on a closed PR: intentional and documented in the migration
// table's close-pr-label row), and its outputs list it in both, as
// actions/stale's do.
var zeroDayClose = parityWant{marked: true, closed: true}

func closedInOneRun(t *testing.T, w *world, n int) {
	t.Helper()
	lacksLabel("stale")(t, w, n)
	if w.notices(n, "stale") != 0 || len(w.fake.Comments(n)) != 1 {
		t.Errorf("%d comments (%d stale notices), want the closing comment only", len(w.fake.Comments(n)), w.notices(n, "stale"))
	}
}

var parityCases = []parityCase{
	// days-before-close 0: marked and closed in the same run.
	{from: mainSpec + "processing an issue with no label will make it stale and close it, if it is old enough only if days-before-close is set to 0",
		inputs: map[string]string{"days-before-close": "0"}, setup: prAged(100), want: zeroDayClose, check: closedInOneRun},
	{from: mainSpec + "processing an issue with no label will make it stale and close it, if it is old enough only if days-before-close is set to > 0 and days-before-issue-close is set to 0 (as days-before-pr-close)",
		inputs: map[string]string{"days-before-close": "30", "days-before-pr-close": "0"}, setup: prAged(100), want: zeroDayClose, check: closedInOneRun},
	{from: mainSpec + "processing an issue with no label will make it stale and not close it, if it is old enough only if days-before-close is set to > 0 and days-before-issue-close is set to > 0 (as days-before-pr-close)",
		inputs: map[string]string{"days-before-close": "30", "days-before-pr-close": "10"}, setup: prAged(100), want: parityWant{marked: true}},
	{from: mainSpec + "processing an issue with no label will make it stale and not close it if days-before-close is set to > 0",
		inputs: map[string]string{"days-before-close": "30"}, setup: prAged(100), want: parityWant{marked: true}},
	{from: mainSpec + "processing an issue with no label will make it stale and not close it if days-before-close is set to -1 and days-before-issue-close is set to > 0 (as days-before-pr-close)",
		inputs: map[string]string{"days-before-close": "-1", "days-before-pr-close": "30"}, setup: prAged(100), want: parityWant{marked: true}},
	{from: mainSpec + "processing an issue with no label will not make it stale if days-before-stale is set to -1",
		inputs: map[string]string{"days-before-stale": "-1"}, setup: prAged(1000), want: parityWant{}, check: noWrites},
	{from: mainSpec + "processing an issue with no label will not make it stale if days-before-stale and days-before-issue-stale are set to -1 (as days-before-pr-stale)",
		inputs: map[string]string{"days-before-stale": "-1", "days-before-pr-stale": "-1"}, setup: prAged(1000), want: parityWant{}, check: noWrites},
	{from: mainSpec + "processing an issue with no label will not make it stale if days-before-stale is set to -1 (days-before-pr-stale -1 overriding a days-before-stale)",
		inputs: map[string]string{"days-before-stale": "1", "days-before-pr-stale": "-1"}, setup: prAged(1000), want: parityWant{}, check: noWrites},
	{from: mainSpec + "processing an issue with no label will make it stale but not close it",
		setup: prAged(100), want: parityWant{marked: true}, check: both(hasLabelNamed("stale"), commentCount(1))},

	// start-date: only PRs created after it are processed.
	{from: mainSpec + "processing an issue with no label and a start date as ISO 8601 being before the issue creation date will make it stale and close it when it is old enough and days-before-close is set to 0",
		inputs: map[string]string{"days-before-close": "0", "start-date": daysAgo(200).Format("2006-01-02T15:04:05Z")}, setup: prAged(100), want: zeroDayClose, check: closedInOneRun},
	{from: mainSpec + "processing an issue with no label and a start date as ISO 8601 being after the issue creation date will not make it stale nor close it when it is old enough and days-before-close is set to 0",
		inputs: map[string]string{"days-before-close": "0", "start-date": daysAgo(50).Format("2006-01-02T15:04:05Z")}, setup: prAged(100), want: parityWant{}, check: noWrites},
	{from: mainSpec + "processing an issue with no label and a start date as RFC 2822 being before the issue creation date will make it stale and close it when it is old enough and days-before-close is set to 0",
		inputs: map[string]string{"days-before-close": "0", "start-date": daysAgo(200).Format(time.RFC1123Z)}, setup: prAged(100), want: zeroDayClose, check: closedInOneRun},
	{from: mainSpec + "processing an issue with no label and a start date as RFC 2822 being after the issue creation date will not make it stale nor close it when it is old enough and days-before-close is set to 0",
		inputs: map[string]string{"days-before-close": "0", "start-date": daysAgo(50).Format(time.RFC1123Z)}, setup: prAged(100), want: parityWant{}, check: noWrites},

	// Stale PRs are closed, whatever the label's spelling.
	{from: mainSpec + "processing a stale issue will close it",
		setup: marked(40), want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale issue containing a space in the label will close it",
		inputs: map[string]string{"stale-pr-label": "state: stale"},
		setup:  func(w *world) int { return markedAs(w, 40, "state: stale") }, want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale issue containing a slash in the label will close it",
		inputs: map[string]string{"stale-pr-label": "lifecycle/stale"},
		setup:  func(w *world) int { return markedAs(w, 40, "lifecycle/stale") }, want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale PR will close it (label Stale, by actions/stale's default, found ignoring case)",
		inputs: map[string]string{"days-before-close": "30"},
		setup:  func(w *world) int { return labelledBy(w, 40, maint, "Stale") }, want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale PR will close it when days-before-pr-stale override days-before-stale",
		inputs: map[string]string{"days-before-close": "30", "days-before-pr-close": "30"}, setup: marked(40), want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale PR will close it even if configured not to mark as stale",
		inputs: map[string]string{"days-before-stale": "-1", "stale-pr-message": ""}, setup: marked(40), want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale PR will close it even if configured not to mark as stale (marked without a comment)",
		inputs: map[string]string{"days-before-stale": "-1", "stale-pr-message": ""},
		setup:  func(w *world) int { return labelledBy(w, 40, maint, "Stale") }, want: parityWant{closed: true}},
	{from: mainSpec + "processing a stale PR will close it even if configured not to mark as stale when days-before-pr-stale override days-before-stale",
		inputs: map[string]string{"days-before-stale": "0", "days-before-pr-stale": "-1", "stale-pr-message": ""}, setup: marked(40), want: parityWant{closed: true}},

	// Closed and locked PRs are left alone.
	{from: mainSpec + "closed prs will not be marked stale",
		setup: prAged(100, closedPR), want: parityWant{}, check: noWrites},
	{from: mainSpec + "stale closed prs will not be closed",
		setup: func(w *world) int {
			n := w.markedPR(40)
			w.fake.Close(n, alice, daysAgo(35), "")
			return n
		}, want: parityWant{}, check: commentCount(1)},
	{from: mainSpec + "locked prs will not be marked stale",
		setup: prAged(100, locked), want: parityWant{}, check: noWrites},
	{from: mainSpec + "stale locked prs will not be closed",
		setup: marked(40, locked), want: parityWant{}, check: noWrites},

	// Exempt labels.
	{from: mainSpec + "exempt pr labels will not be marked stale (an exempt issue label does not exempt a PR)",
		inputs: map[string]string{"exempt-issue-labels": "Cool"}, setup: prAged(100, withLabels("Cool")), want: parityWant{marked: true}},
	{from: mainSpec + "exempt issue labels will not be marked stale (as exempt-pr-labels)",
		inputs: map[string]string{"exempt-pr-labels": "Exempt"}, setup: prAged(100, withLabels("Exempt")), want: parityWant{}, check: noWrites},
	{from: mainSpec + "exempt issue labels will not be marked stale (multi issue label with spaces) (as exempt-pr-labels)",
		inputs: map[string]string{"exempt-pr-labels": "Exempt, Cool"}, setup: prAged(100, withLabels("Cool")), want: parityWant{}, check: noWrites},
	{from: mainSpec + "exempt issue labels will not be marked stale (multi issue label) (as exempt-pr-labels)",
		inputs: map[string]string{"exempt-pr-labels": "Exempt,Cool"}, setup: prAged(100, withLabels("Cool")), want: parityWant{}, check: noWrites},

	{from: mainSpec + "stale issues should not be closed if days is set to -1",
		inputs: map[string]string{"days-before-close": "-1"}, setup: marked(100), want: parityWant{}, check: hasLabelNamed("stale")},

	// Un-staling.
	{from: mainSpec + "stale label should be removed if a comment was added to a stale issue",
		inputs: map[string]string{"remove-stale-when-updated": "true"}, setup: commentedBy(marked(10), bob, 2), want: parityWant{unstaled: true}},
	{from: mainSpec + `when the option "labelsToAddWhenUnstale" is set, the labels should be added when unstale`,
		inputs: map[string]string{"remove-stale-when-updated": "true", "labels-to-add-when-unstale": "test"},
		setup:  commentedBy(marked(10), bob, 2), want: parityWant{unstaled: true}, check: hasLabelNamed("test")},
	{from: mainSpec + `when the option "labelsToRemoveWhenStale" is set, the labels should be removed when stale`,
		inputs: map[string]string{"labels-to-remove-when-stale": "test"},
		setup:  prAged(100, withLabels("test")), want: parityWant{marked: true}, check: lacksLabel("test")},
	{from: mainSpec + "stale label should not be removed if a comment was added by the bot (and the issue should be closed)",
		inputs: map[string]string{"remove-stale-when-updated": "true"}, setup: commentedBy(marked(40), action, 35), want: parityWant{closed: true}},
	{from: mainSpec + "stale label containing a space should be removed if a comment was added to a stale issue",
		inputs: map[string]string{"remove-stale-when-updated": "true", "stale-pr-label": "stat: stale"},
		setup:  commentedBy(func(w *world) int { return markedAs(w, 10, "stat: stale") }, bob, 2), want: parityWant{unstaled: true}},

	// The close window.
	{from: mainSpec + "stale issues should not be closed until after the closed number of days",
		inputs: map[string]string{"days-before-stale": "5", "days-before-close": "1"}, setup: prAged(justOver(5)), want: parityWant{marked: true}},
	{from: mainSpec + "stale issues should be closed if the closed nubmer of days (additive) is also passed",
		inputs: map[string]string{"days-before-stale": "5", "days-before-close": "1"}, setup: marked(2), want: parityWant{closed: true}},
	{from: mainSpec + "stale issues should not be closed until after the closed number of days (long)",
		inputs: map[string]string{"days-before-stale": "5", "days-before-close": "20"}, setup: prAged(10), want: parityWant{marked: true}},

	// Messages.
	{from: mainSpec + "skips stale message on prs when stale-pr-message is empty",
		inputs: map[string]string{"stale-pr-message": ""}, setup: prAged(100), want: parityWant{marked: true}, check: both(commentCount(0), hasLabelNamed("stale"))},
	{from: mainSpec + "send stale message on prs when stale-pr-message is not empty",
		inputs: map[string]string{"stale-pr-message": "This PR is stale"}, setup: prAged(100), want: parityWant{marked: true}, check: commentCount(1)},
	{from: mainSpec + `processing a pull request to be stale with the "stalePrMessage" option set will send a PR comment`,
		inputs: map[string]string{"stale-pr-message": "This PR is stale", "days-before-stale": "10"}, setup: prAged(justOver(10)), want: parityWant{marked: true}, check: commentCount(1)},
	{from: mainSpec + `processing a pull request to be stale with the "stalePrMessage" option set to empty will not send a PR comment`,
		inputs: map[string]string{"stale-pr-message": "", "days-before-stale": "10"}, setup: prAged(justOver(10)), want: parityWant{marked: true}, check: commentCount(0)},

	{from: mainSpec + "git branch is deleted when option is enabled",
		inputs: map[string]string{"delete-branch": "true"},
		setup: func(w *world) int {
			w.fake.AddBranch("old-work")
			return w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
		}, want: parityWant{closed: true},
		check: func(t *testing.T, w *world, n int) {
			if w.fake.HasBranch("old-work") {
				t.Error("the head branch was not deleted")
			}
		}},

	// days-before-pr-stale against a PR opened 2 days ago.
	{from: mainSpec + `processing a pull request opened since 2 days and with the option "daysBeforePrStale" at 3 will not make it stale`,
		inputs: map[string]string{"days-before-stale": "10", "days-before-pr-stale": "3"},
		setup: func(w *world) int {
			return w.pr(justOver(2), func(is *fakegithub.Issue) { is.CreatedAt = is.UpdatedAt })
		}, want: parityWant{}},
	{from: mainSpec + `processing a pull request opened since 2 days and with the option "daysBeforePrStale" at 2 will make it stale`,
		inputs: map[string]string{"days-before-stale": "10", "days-before-pr-stale": "2"},
		setup: func(w *world) int {
			return w.pr(justOver(2), func(is *fakegithub.Issue) { is.CreatedAt = is.UpdatedAt })
		}, want: parityWant{marked: true}},
	{from: mainSpec + `processing a pull request opened since 2 days and with the option "daysBeforePrStale" at 1 will make it stale`,
		inputs: map[string]string{"days-before-stale": "10", "days-before-pr-stale": "1"},
		setup: func(w *world) int {
			return w.pr(justOver(2), func(is *fakegithub.Issue) { is.CreatedAt = is.UpdatedAt })
		}, want: parityWant{marked: true}},

	// close-pr-label on open, closed and locked PRs.
	{from: mainSpec + "processing a previously closed issue with a close label will remove the close label",
		inputs: map[string]string{"close-pr-label": "close"}, setup: prAged(7, withLabels("close")), want: parityWant{}, check: lacksLabel("close")},
	{from: mainSpec + "processing a closed issue with a close label will not remove the close label",
		inputs: map[string]string{"close-pr-label": "close"}, setup: prAged(7, withLabels("close"), closedPR), want: parityWant{}, check: both(hasLabelNamed("close"), noWrites)},
	{from: mainSpec + "processing a locked issue with a close label will not remove the close label",
		inputs: map[string]string{"close-pr-label": "close"}, setup: prAged(7, withLabels("close"), locked), want: parityWant{}, check: both(hasLabelNamed("close"), noWrites)},

	// actions/stale#351: a stale label left on, a person's update since.
	{from: mainSpec + "processing an issue stale since less than the daysBeforeStale with a stale label created after daysBeforeClose should close the issue",
		inputs: map[string]string{"stale-pr-label": "stale-label", "days-before-stale": "30", "days-before-close": "7", "close-pr-message": "close message", "remove-stale-when-updated": "false"},
		setup: func(w *world) int {
			n := markedAs(w, 26, "stale-label")
			w.fake.Comment(n, bob, daysAgo(9), "reopening this")
			return n
		}, want: parityWant{closed: true}},
	{from: mainSpec + "processing an issue stale since less than the daysBeforeStale without a stale label should close the issue (it asserts: not closed)",
		inputs: map[string]string{"stale-pr-label": "stale-label", "days-before-stale": "30", "days-before-close": "7", "close-pr-message": "close message", "remove-stale-when-updated": "false"},
		setup:  commentedBy(prAged(200), bob, 9), want: parityWant{}, check: noWrites},

	// include-only-assigned.
	{from: mainSpec + `processing an issue with the "includeOnlyAssigned" option and nonempty assignee list will stale the issue`,
		inputs: map[string]string{"include-only-assigned": "true"}, setup: prAged(100, assignedTo("alice")), want: parityWant{marked: true}},
	{from: mainSpec + `processing an issue with the "includeOnlyAssigned" option set and no assignees will not stale the issue`,
		inputs: map[string]string{"include-only-assigned": "true"}, setup: prAged(100), want: parityWant{}, check: noWrites},

	// exempt-draft-pr.spec.ts
	{from: `exempt-draft-pr.spec.ts: when the option "exempt-draft-pr" is disabled / should stale the pull request`,
		inputs: map[string]string{"exempt-draft-pr": "false"}, setup: prAged(100, draft), want: parityWant{marked: true}},
	{from: `exempt-draft-pr.spec.ts: when the option "exempt-draft-pr" is enabled / should not stale the pull request`,
		inputs: map[string]string{"exempt-draft-pr": "true"}, setup: prAged(100, draft), want: parityWant{}, check: noWrites},

	// remove-stale-when-updated-label-events.spec.ts
	{from: "remove-stale-when-updated-label-events.spec.ts: does not remove stale label when only stale label events occurred",
		inputs: map[string]string{"remove-stale-when-updated": "true"}, setup: marked(10), want: parityWant{}},
	{from: "remove-stale-when-updated-label-events.spec.ts: removes stale label when updates are not just stale label events (a person's label)",
		inputs: map[string]string{"remove-stale-when-updated": "true"},
		setup: func(w *world) int {
			n := w.markedPR(10)
			w.fake.Label(n, maint, daysAgo(2), "needs-rebase")
			return n
		}, want: parityWant{unstaled: true}},

	// debug-only: the decisions are the same, nothing is written.
	{from: "default-processor-options.ts: debugOnly (every test above runs with it): marks without writing",
		inputs: map[string]string{"debug-only": "true"}, setup: prAged(100), want: parityWant{marked: true}, check: both(noWrites, lacksLabel("stale"))},
	{from: "default-processor-options.ts: debugOnly: closes without writing",
		inputs: map[string]string{"debug-only": "true"}, setup: marked(40), want: parityWant{closed: true},
		check: func(t *testing.T, w *world, n int) {
			noWrites(t, w, n)
			if w.state(n) != "open" {
				t.Errorf("debug-only closed #%d", n)
			}
		}},
}

// removeStaleRows: remove-stale-when-updated.spec.ts, the PR cases ("assuming
// there is a comment on the issue": a person's comment after the mark).
func removeStaleRows() []parityCase {
	const spec = "remove-stale-when-updated.spec.ts: "
	type row struct {
		generic, pr, issue string // "" unset
		removed            bool
		name               string
	}
	rows := []row{
		{"false", "", "", false, `remove-stale-when-updated option / disabled / should not remove the stale label on the pull request`},
		{"true", "", "", true, `remove-stale-when-updated option / enabled / should remove the stale label on the pull request`},
		{"false", "", "", false, `remove-issue-stale-when-updated option / disabled / unset / should not remove the stale label on the pull request`},
		{"false", "", "false", false, `remove-issue-stale-when-updated option / disabled / disabled / should not remove the stale label on the pull request`},
		{"false", "", "true", false, `remove-issue-stale-when-updated option / disabled / enabled / should not remove the stale label on the pull request`},
		{"true", "", "", true, `remove-issue-stale-when-updated option / enabled / unset / should remove the stale label on the pull request`},
		{"true", "", "false", true, `remove-issue-stale-when-updated option / enabled / disabled / should remove the stale label on the pull request`},
		{"true", "", "true", true, `remove-issue-stale-when-updated option / enabled / enabled / should remove the stale label on the pull request`},
		{"false", "", "", false, `remove-pr-stale-when-updated option / disabled / unset / should not remove the stale label on the pull request`},
		{"false", "false", "", false, `remove-pr-stale-when-updated option / disabled / disabled / should not remove the stale label on the pull request`},
		{"false", "true", "", true, `remove-pr-stale-when-updated option / disabled / enabled / should remove the stale label on the pull request`},
		{"true", "", "", true, `remove-pr-stale-when-updated option / enabled / unset / should remove the stale label on the pull request`},
		{"true", "false", "", false, `remove-pr-stale-when-updated option / enabled / disabled / should not remove the stale label on the pull request`},
		{"true", "true", "", true, `remove-pr-stale-when-updated option / enabled / enabled / should remove the stale label on the pull request`},
	}
	var out []parityCase
	for _, r := range rows {
		in := map[string]string{"remove-stale-when-updated": r.generic}
		if r.pr != "" {
			in["remove-pr-stale-when-updated"] = r.pr
		}
		if r.issue != "" {
			in["remove-issue-stale-when-updated"] = r.issue
		}
		c := parityCase{from: spec + r.name, inputs: in, setup: commentedBy(marked(10), bob, 2), want: parityWant{unstaled: r.removed}}
		if !r.removed {
			c.check = hasLabelNamed("stale")
		}
		out = append(out, c)
	}
	return out
}

// ignoreUpdatesRows: updates-reset-stale.spec.ts, the PR cases: stale
// within 10 days, created 20 days ago, updated (by a person) 5 or 15 days
// ago.
func ignoreUpdatesRows() []parityCase {
	const spec = "updates-reset-stale.spec.ts: when the pull request should be stale within 10 days and was created 20 days ago and updated %d days ago / %s"
	var out []parityCase
	for _, updated := range []float64{5, 15} {
		for _, generic := range []string{"false", "true"} {
			for _, pr := range []string{"-", "true", "false", ""} {
				in := map[string]string{"days-before-stale": "10", "ignore-updates": generic}
				name := "ignore updates " + map[string]string{"false": "disabled", "true": "enabled"}[generic]
				switch pr {
				case "-":
				case "":
					name += " / ignore pull request updates unset"
				default:
					in["ignore-pr-updates"] = pr
					name += " / ignore pull request updates " + map[string]string{"false": "disabled", "true": "enabled"}[pr]
				}
				ignore := generic == "true"
				if pr == "true" || pr == "false" {
					ignore = pr == "true"
				}
				stale := updated > 10 || ignore
				setup := func(w *world) int {
					n := w.pr(20)
					w.fake.Comment(n, alice, daysAgo(updated), "an update")
					return n
				}
				out = append(out, parityCase{from: fmt.Sprintf(spec, int(updated), name), inputs: in, setup: setup, want: parityWant{marked: stale}})
			}
		}
	}
	return out
}

// labelFilterRows: any-of-labels.spec.ts and only-labels.spec.ts, the
// "any-of-pr-labels option" and "only-pr-labels option" blocks.
func labelFilterRows() []parityCase {
	type test struct {
		name   string
		pr     string // the -pr- input; "" unset
		labels []string
		any    bool // expected for any-of
		only   bool // expected for only
	}
	tests := func(genericSet bool) []test {
		// With the generic input set and the -pr- one not, the generic one
		// applies (and the PRs below never carry its label).
		return []test{
			{"should stale when not set even if the pr has no label", "", nil, !genericSet, !genericSet},
			{"should stale when not set even if the pr has a label", "", []string{"label"}, !genericSet, !genericSet},
			{"should not stale when set and the pr has no label", "dummy-label", nil, false, false},
			{"should not stale when set and the pr has a different label", "dummy-label", []string{"label"}, false, false},
			{"should not stale when set and the pr has different labels", "dummy-label", []string{"label-1", "label-2"}, false, false},
			{"should stale when set and the pr has the same label", "dummy-label", []string{"dummy-label"}, true, true},
			{"should stale when set and the pr has only one of the same label", "dummy-label-1,dummy-label-2", []string{"dummy-label-1"}, true, false},
			{"should stale when set and the pr has all the same labels", "dummy-label-1,dummy-label-2", []string{"dummy-label-1", "dummy-label-2"}, true, true},
		}
	}
	var out []parityCase
	for _, kind := range []string{"any-of", "only"} {
		blocks := []struct{ name, generic string }{
			{"when the " + kind + "-labels options is not set", ""},
			{"when the " + kind + "-labels options is set (same as " + kind + "-pr-labels)", "dummy-label"},
			{"when the " + kind + "-labels options is set (different than " + kind + "-pr-labels)", "dummy-" + kind + "-label"},
		}
		for _, b := range blocks {
			for _, tc := range tests(b.generic != "") {
				in := map[string]string{}
				if b.generic != "" {
					in[kind+"-labels"] = b.generic
				}
				if tc.pr != "" {
					in[kind+"-pr-labels"] = tc.pr
				}
				want := tc.any
				if kind == "only" {
					want = tc.only
				}
				labels := tc.labels
				out = append(out, parityCase{
					from:   fmt.Sprintf("%s-labels.spec.ts: %s-pr-labels option / %s / %s", kind, kind, b.name, tc.name),
					inputs: in, setup: func(w *world) int { return w.pr(100, withLabels(labels...)) }, want: parityWant{marked: want},
				})
			}
		}
	}
	return out
}

type parityMilestoneRow struct {
	inputs    map[string]string
	milestone string
	stale     bool
}

type parityAssigneeRow struct {
	id        int
	inputs    map[string]string
	assignees []string
	stale     bool
}

func matrixRows() []parityCase {
	var out []parityCase
	for _, r := range parityMilestoneRows {
		ms := r.milestone
		out = append(out, parityCase{from: fmt.Sprintf("milestones.spec.ts: %v, the PR's milestone %q", r.inputs, ms), inputs: r.inputs,
			setup: func(w *world) int { return w.pr(100, func(is *fakegithub.Issue) { is.Milestone = ms }) },
			want:  parityWant{marked: r.stale}})
	}
	for _, r := range parityAssigneeRows {
		as := r.assignees
		out = append(out, parityCase{from: fmt.Sprintf("assignees.spec.ts #%d: %v, the PR's assignees %q", r.id, r.inputs, as), inputs: r.inputs,
			setup: func(w *world) int { return w.pr(100, assignedTo(as...)) },
			want:  parityWant{marked: r.stale}})
	}
	return out
}

func allParityCases() []parityCase {
	out := append([]parityCase(nil), parityCases...)
	out = append(out, removeStaleRows()...)
	out = append(out, ignoreUpdatesRows()...)
	out = append(out, labelFilterRows()...)
	return append(out, matrixRows()...)
}

// parityShortStride: under -short every parityShortStride-th row of the
// table runs, a sample of each family (the rows are grouped by the
// actions/stale test file they come from); the whole table is a replay of
// 579 runs, for go test ./... and CI.
const parityShortStride = 5

func TestActionsStaleParity(t *testing.T) {
	t.Parallel()
	cases := allParityCases()
	for i, tc := range cases {
		if testing.Short() && i%parityShortStride != 0 {
			continue // the whole table without -short (go test ./..., CI)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := tc.setup(w)
			inputs := map[string]string{}
			for k, v := range tc.inputs {
				inputs[k] = v
			}
			res := w.run(inputs)
			got := parityWant{
				marked:   inOutput(t, res, report.OutputStaled, n),
				closed:   inOutput(t, res, report.OutputClosed, n),
				unstaled: has(res.Unstaled(), n),
			}
			if got != tc.want {
				t.Errorf("actions/stale %s\ninputs %v: got %+v, want %+v (labels %v, state %s, skipped as %q)",
					tc.from, tc.inputs, got, tc.want, w.labels(n), w.state(n), why(res.Skipped(), n))
			}
			if tc.want.closed && !tc.inputs2dry() && w.state(n) != "closed" {
				t.Errorf("actions/stale %s: listed closed, state %s", tc.from, w.state(n))
			}
			if tc.check != nil {
				tc.check(t, w, n)
				if t.Failed() {
					t.Logf("actions/stale %s", tc.from)
				}
			}
		})
	}
}

// inOutput reports whether the step output name lists PR n.
func inOutput(t *testing.T, res sweep.Result, name string, n int) bool {
	t.Helper()
	for _, o := range report.Outputs(res) {
		if o.Name != name {
			continue
		}
		var prs []struct{ Number int }
		if err := json.Unmarshal([]byte(o.Value), &prs); err != nil {
			t.Fatalf("output %s: %v", name, err)
		}
		for _, pr := range prs {
			if pr.Number == n {
				return true
			}
		}
	}
	return false
}

func (c parityCase) inputs2dry() bool { return strings.EqualFold(c.inputs["debug-only"], "true") }

// Inputs actions/stale refuses, or treats as no date at all, are refused by
// stalepr before any request: nothing is marked either way.
func TestActionsStaleParityRefusedInputs(t *testing.T) {
	t.Parallel()
	cases := []struct{ from, input, value string }{
		{mainSpec + "processing an issue with no label and a start date as ECMAScript epoch in seconds ... will not make it stale nor close it", "start-date", "1577836800"},
		{mainSpec + "processing an issue with no label and a start date as ECMAScript epoch in milliseconds ... will not make it stale nor close it", "start-date", "1577836800000"},
		// Fractional days: documented (Migrating, "Fractional days").
		{mainSpec + `processing a pull request opened since 1 hour and with the option "daysBeforePrStale" at 0.1666666667 (4 hours) will not make it stale`, "days-before-pr-stale", "0.1666666667"},
	}
	for _, tc := range cases {
		in := map[string]string{tc.input: tc.value}
		src := config.Source{
			Input: func(name string) (string, bool) { v, ok := in[name]; return v, ok },
			Env: func(name string) string {
				return map[string]string{"GITHUB_TOKEN": token, "GITHUB_REPOSITORY": "octo/repo"}[name]
			},
		}
		if _, err := config.Parse(src); err == nil {
			t.Errorf("actions/stale %s: %s: %q accepted, want refused", tc.from, tc.input, tc.value)
		}
	}
}
