package sweep

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/testenv"
)

// The plans of request steps, as golden files: for a repository state (the
// operations a run plans, under some inputs), what each operation sends.
// The rendering is a pure function of the planned operations, built the way
// the executor builds them (sweeper.steps), so no GitHub is needed: the
// port speaks ghapi's types today, which a small in-memory fake would have
// to copy. Run with -update after a change of steps and review the diff.

// planLine renders an operation's steps, e.g.
//
//	#12 close (3): GET timeline, POST comment, PATCH issue
//
// with its cost in requests; a step marked "?" is sent only when what an
// earlier read shows calls for it.
func planLine(number int, out Outcome, steps []step) string {
	var names []string
	for _, st := range steps {
		mark := ""
		if st.when != nil {
			mark = "?"
		}
		if st.guard != nil && st.guard.n > 0 {
			// A guard read before a retry only is not in the plan, as
			// the retry is not.
			names = append(names, st.guard.name+mark)
		}
		names = append(names, st.name+mark)
	}
	if len(names) == 0 {
		names = []string{"nothing to send"}
	}
	return fmt.Sprintf("#%d %s (%d): %s", number, out, cost(steps), strings.Join(names, ", "))
}

// renderPlan is a plan as its golden file holds it: the inputs, then each
// operation in the order the executor runs them.
func renderPlan(inputs map[string]string, s *sweeper, ops []op) string {
	var b strings.Builder
	keys := make([]string, 0, len(inputs))
	for k := range inputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("# inputs:")
	if len(keys) == 0 {
		b.WriteString(" the defaults")
	}
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%q", k, inputs[k])
	}
	b.WriteString("\n")
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].out < ops[j].out })
	total := 0
	for i := range ops {
		steps := s.w.steps(&ops[i])
		total += cost(steps)
		b.WriteString(planLine(ops[i].pr.Number, ops[i].out, steps) + "\n")
	}
	fmt.Fprintf(&b, "# %d requests at most\n", total)
	return b.String()
}

var planNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// planSweeper is a sweeper with cfg at planNow that plans and costs
// operations but never sends: no GitHub behind it, no history listed.
func planSweeper(cfg config.Config) *sweeper { return newSweeper(nil, cfg, planNow, nil) }

// planState is the operations of a typical run: every outcome once, on PRs
// as the listing shows them; known is the activity of the PRs whose timeline
// the run read (the stale ones).
func planState() []op {
	known := &lifecycle.Activity{}
	pr := func(n int, labels ...string) lifecycle.PR {
		return lifecycle.PR{Number: n, Title: fmt.Sprintf("PR %d", n), Labels: labels, HeadSHA: "abc", NodeID: "PR_x"}
	}
	return []op{
		{out: Marked, pr: pr(10)},
		{out: Marked, pr: pr(11, "needs-work")},
		{out: Notified, pr: pr(12, "stale"), act: known},
		{out: Unstaled, pr: pr(13, "stale"), act: known},
		{out: Closed, pr: pr(14, "stale"), act: known},
		{out: Closed, pr: pr(15, "stale"), d: lifecycle.Decision{MarkedAt: planNow.AddDate(0, 0, -30)}},
		{out: Closed, pr: pr(16, "stale"), act: known, d: lifecycle.Decision{CloseNoticePosted: true}},
		{out: Nudged, pr: pr(17), act: known},
		// The author answered a change request: a fresh read, the request.
		{out: Rerequested, pr: pr(25), act: known, reviewers: []string{"maya"}},
		// The nudge went unanswered: the request, then the comment naming them.
		{out: Escalated, pr: pr(26), act: known, reviewers: []string{"lead", "octo/core"}},
		{out: NudgeLabeled, pr: pr(18, "waiting-on-review"), act: known},
		{out: BranchFinished, pr: pr(19, "stale")},
		{out: LabelCleaned, pr: pr(20, "stale")},
		{out: CloseLabelCleaned, pr: pr(21, "closed-stale")},
		{out: DuplicateDeleted, pr: lifecycle.PR{Number: 22}, comment: 99},
		{out: Reopened, pr: pr(23, "stale", "closed-stale"), audit: &lifecycle.Audit{}},
		// A stopped run posted its comment: the reopening only.
		{out: Reopened, pr: pr(24), audit: &lifecycle.Audit{ReopenPostedAt: planNow}},
		// A reopen command: a fresh read, the reopening with its labels,
		// the answer; on the event's own read, no fresh read; a branch gone,
		// the answer alone.
		{out: ReopenedOnCommand, pr: pr(27, "closed-stale"), command: &lifecycle.CommandDecision{Verdict: lifecycle.CommandReopen}},
		{out: ReopenedOnCommand, pr: pr(28, "closed-stale"), command: &lifecycle.CommandDecision{Verdict: lifecycle.CommandReopen}, readNow: true},
		{out: CommandAnswered, pr: pr(29), command: &lifecycle.CommandDecision{Verdict: lifecycle.CommandAnswer}},
	}
}

func TestPlansGolden(t *testing.T) {
	t.Parallel()
	for name, inputs := range map[string]map[string]string{
		"defaults":            {},
		"delete-branch":       {"delete-branch": "true", "close-pr-label": "closed-stale"},
		"close-to-draft":      {"close-action": "draft", "close-pr-label": "closed-stale"},
		"templates-that-read": {"stale-pr-message": "Stale; {{reviewers}}", "close-pr-message": "Closed after {{days-inactive}} days"},
		"no-messages":         {"stale-pr-message": "", "close-pr-message": ""},
		"label-sets": {"labels-to-add-when-unstale": "revived", "labels-to-remove-when-stale": "needs-work",
			"close-pr-label": "closed-stale"},
		"review-nudge": {"days-before-review-nudge": "7", "review-nudge-label": "waiting-on-review"},
		"hand-back":    {"days-before-review-nudge": "7", "rerequest-reviewers-on-answer": "true"},
		"escalation": {"days-before-review-nudge": "7", "days-before-review-escalation": "7",
			"escalation-reviewers": "lead,octo/core"},
		"closure-audit": {"audit-closed-days": "30", "reopen-wrongly-closed": "true", "close-pr-label": "closed-stale"},
		"dashboard":     {"dashboard-issue": "Pull request queue"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg, err := config.Parse(config.Source{
				Input: func(k string) (string, bool) { v, ok := inputs[k]; return v, ok },
				Env: func(k string) string {
					return map[string]string{"GITHUB_TOKEN": "ghs_x", "GITHUB_REPOSITORY": "octo/repo"}[k]
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			s := planSweeper(cfg)
			ops := planState()
			if cfg.DashboardIssue != "" {
				ops = append(ops, dashboardState()...)
			}
			testenv.Golden(t, filepath.Join("testdata", "plans", name+".txt"), renderPlan(inputs, s, ops))
		})
	}
}

// dashboardState is the dashboard issue's operations, after the sweep:
// the creation (a run's first, or a dry run's), an edit, a copy closed.
func dashboardState() []op {
	return []op{
		{out: DashboardCreated, issue: &issueOp{body: "block"}},
		{out: DashboardEdited, pr: lifecycle.PR{Number: 30}, issue: &issueOp{body: "block"}},
		{out: DashboardDuplicateClosed, pr: lifecycle.PR{Number: 31}, issue: &issueOp{body: "closed"}},
	}
}

// TestCostIsTheSteps: the budget check's cost of an operation is the
// requests of the steps the executor sends, so the two cannot drift: each
// operation of a plan costs what its steps add up to, the dearest way its
// reads can go included.
func TestCostIsTheSteps(t *testing.T) {
	t.Parallel()
	cfg, err := config.Parse(config.Source{
		Input: func(k string) (string, bool) {
			return map[string]string{"delete-branch": "true"}[k], k == "delete-branch"
		},
		Env: func(k string) string {
			return map[string]string{"GITHUB_TOKEN": "ghs_x", "GITHUB_REPOSITORY": "octo/repo"}[k]
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := planSweeper(cfg)
	// A close with delete-branch: the fresh read, the comment, the close,
	// the head read, the two branch listings, the branch's commit read,
	// the deletion, the stale label off.
	if got := s.x.costOf(Closed, true); got != 9 {
		t.Errorf("close with delete-branch costs %d, want 9", got)
	}
	if got, want := s.x.costOfDecision(lifecycle.Close), s.x.costOf(Closed, false); got != want {
		t.Errorf("a close decision costs %d, its operation %d", got, want)
	}
	if got, want := s.x.costOfDecision(lifecycle.NeedDetail), reqTimeline.n+s.x.costOf(Marked, true); got != want || got != 3 {
		t.Errorf("a decision that needs detail costs %d, want the timeline and a mark: %d (3)", got, want)
	}
}

// TestEveryOutcomeNamed: every outcome has its name (plans, test messages,
// and the report's table is checked up to the first unnamed one).
func TestEveryOutcomeNamed(t *testing.T) {
	t.Parallel()
	for o := Unstaled; o <= Failed; o++ {
		if _, ok := outcomeNames[o]; !ok {
			t.Errorf("outcome %d has no name in outcomeNames", int(o))
		}
	}
}
