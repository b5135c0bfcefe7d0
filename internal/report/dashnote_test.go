package report

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/sweep"
)

// TestDashboardNote: both summaries say what the run did to the dashboard
// issue, in its outcome's words for the run's mode, with why it was left
// alone or failed, made safe; nothing when dashboard-issue is off.
func TestDashboardNote(t *testing.T) {
	t.Parallel()
	const url = "https://github.com/octo/repo/issues/7"
	dash := func(out sweep.Outcome, n int) sweep.Item {
		return sweep.Item{Dashboard: true, Number: n, URL: url, Title: "Queue", Outcome: out}
	}
	failed := dash(sweep.Failed, 0)
	failed.Err = "create the dashboard issue: <b>422</b> Validation Failed"
	left := dash(sweep.DashboardLeftAlone, 7)
	left.Reason = "it is closed, so stalepr leaves it"
	for _, tc := range []struct {
		name         string
		dry          bool
		items        []sweep.Item
		markdown     string // "" when nothing is said
		text         string
		notInSummary string
	}{
		{name: "off", items: nil},
		{name: "edited", items: []sweep.Item{dash(sweep.DashboardEdited, 7)},
			markdown: "Dashboard issue: [#7](" + url + ") updated.", text: "Dashboard issue: #7 updated."},
		{name: "dry run", dry: true, items: []sweep.Item{dash(sweep.DashboardCreated, 0)},
			markdown: "Dashboard issue: would be created.", text: "Dashboard issue: would be created."},
		{name: "a copy closed", items: []sweep.Item{dash(sweep.DashboardUpToDate, 7), dash(sweep.DashboardDuplicateClosed, 9)},
			markdown: "Dashboard issue: [#7](" + url + ") up to date; [#9](" + url + ") closed.", text: "Dashboard issue: #7 up to date; #9 closed."},
		{name: "left alone", items: []sweep.Item{left},
			markdown: "Dashboard issue: [#7](" + url + ") left alone (it is closed, so stalepr leaves it).", text: "#7 left alone (it is closed, so stalepr leaves it)."},
		{name: "failed", items: []sweep.Item{failed},
			markdown: "Dashboard issue: failed (create the dashboard issue: &lt;b&gt;422&lt;/b&gt; Validation Failed).", text: "Dashboard issue: failed (create the dashboard issue: <b>422</b> Validation Failed).",
			notInSummary: "<b>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := sweep.Result{DryRun: tc.dry, RateRemaining: -1, PointsRemaining: -1, Dashboard: tc.items}
			sum, txt := Summary(r, "octo/repo"), Text(r, "octo/repo")
			if tc.markdown == "" {
				if strings.Contains(sum+txt, "Dashboard issue") {
					t.Errorf("dashboard-issue off, yet the summaries speak of it:\n%s\n%s", sum, txt)
				}
				return
			}
			if !strings.Contains(sum, tc.markdown) {
				t.Errorf("summary lacks %q:\n%s", tc.markdown, sum)
			}
			if !strings.Contains(txt, tc.text) {
				t.Errorf("text summary lacks %q:\n%s", tc.text, txt)
			}
			if tc.notInSummary != "" && strings.Contains(sum, tc.notInSummary) {
				t.Errorf("summary has %q unescaped:\n%s", tc.notInSummary, sum)
			}
		})
	}
}

// TestDashboardWarnings: a failed update is a warning of its own; every
// other outcome says nothing more.
func TestDashboardWarnings(t *testing.T) {
	t.Parallel()
	r := sweep.Result{Dashboard: []sweep.Item{
		{Dashboard: true, Outcome: sweep.DashboardUpToDate, Number: 3},
		{Dashboard: true, Outcome: sweep.Failed, Number: 4, Err: "update the dashboard issue #4: 502"},
	}}
	got := DashboardWarnings(r)
	if len(got) != 1 || !strings.Contains(got[0], "update the dashboard issue #4: 502") {
		t.Errorf("warnings %q, want the one failure", got)
	}
}
