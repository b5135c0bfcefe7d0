package report

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// auditRun is a run whose closure audit found four PRs closed on the
// reviewers' or maintainers' turn: two reopened, one merged, one whose
// branch is gone.
func auditRun(dry bool) sweep.Result {
	day := 24 * time.Hour
	r := sweep.Result{Now: runAt, DryRun: dry, ListedAll: true, RateLimit: 1000, RateRemaining: 900, Requests: 12, Writes: 6}
	wrong := []sweep.Audited{
		{Number: 41, Title: "Add retry | to the client", Kind: lifecycle.ClosedByStaleBot, Whose: lifecycle.TurnReviewers, Waited: 95},
		{Number: 37, Title: "Fix the <b>parser</b>", Kind: lifecycle.ClosedByStalepr, Whose: lifecycle.TurnMaintainers, Waited: 40},
		{Number: 30, Title: "Docs", Kind: lifecycle.ClosedWithLabel, Whose: lifecycle.TurnReviewers, Waited: 70, Kept: sweep.ReasonMerged},
		{Number: 22, Title: "Old branch", Kind: lifecycle.ClosedByStaleBot, Whose: lifecycle.TurnReviewers, Waited: 120, Kept: sweep.ReasonBranchGone},
	}
	for i := range wrong {
		wrong[i].URL = "https://github.com/o/r/pull/" + itoa(wrong[i].Number)
		wrong[i].ClosedAt = runAt.Add(-time.Duration(3+5*i) * day)
	}
	r.Audit = &sweep.AuditResult{Days: 30, Since: runAt.Add(-30 * day), Closes: 9, Wrong: wrong, Complete: true}
	for _, w := range wrong[:2] {
		r.Items = append(r.Items, sweep.Item{Number: w.Number, Title: w.Title, URL: w.URL, Outcome: sweep.Reopened,
			Action: lifecycle.Keep, Reason: sweep.ReasonWronglyClosed})
	}
	return r
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestSummaryAudit: the job summary's closure audit section lists each
// wrongly closed PR, linked, with how it was closed, whom it waited on and
// what the run did about it; the dry run says what it would do; the
// dashboard has the same section; the output lists the numbers.
func TestSummaryAudit(t *testing.T) {
	t.Parallel()
	s := Summary(auditRun(false), "o/r")
	checkMarkdown(t, s)
	testenv.Golden(t, filepath.Join("testdata", "golden", "summary", "audit.md"), s)
	for _, want := range []string{"### Closure audit: 4 pull requests closed on the reviewers' or maintainers' turn",
		"Of 9 closes by a stale bot in the last 30 days", "[#41](https://github.com/o/r/pull/41)", "| the maintainers, to merge | 40 | reopened |",
		"no: " + string(sweep.ReasonMerged), "no: " + string(sweep.ReasonBranchGone), "| Reopened | 2 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if dry := Summary(auditRun(true), "o/r"); !strings.Contains(dry, "| would reopen |") || !strings.Contains(dry, "| Would reopen | 2 |") {
		t.Errorf("dry run's summary does not say it would reopen:\n%s", dry)
	}
	d := Dashboard(auditRun(false))
	if !strings.Contains(d, "#### Closure audit: 4 pull requests") || !strings.Contains(d, "[#37](https://github.com/o/r/pull/37)") {
		t.Errorf("dashboard lacks the audit:\n%s", d)
	}
	if got := byName(Outputs(auditRun(false)))[OutputWrongly]; got != "[41,37,30,22]" {
		t.Errorf("%s = %s, want [41,37,30,22]", OutputWrongly, got)
	}
	text := Text(auditRun(true), "o/r")
	if !strings.Contains(text, "Closure audit, last 30 days: 4 of 9 closes") || !strings.Contains(text, "#37 closed 2026-11-23 by stalepr, waiting on the maintainers, to merge for 40 days; reopened: would reopen") {
		t.Errorf("text summary lacks the audit:\n%s", text)
	}
	if strings.Contains(Summary(sweep.Result{Now: runAt}, "o/r"), "Closure audit") || strings.Contains(Text(sweep.Result{Now: runAt}, "o/r"), "Closure audit") || strings.Contains(Dashboard(sweep.Result{Now: runAt}), "Closure audit") {
		t.Error("a run without the audit shows its section")
	}
}
