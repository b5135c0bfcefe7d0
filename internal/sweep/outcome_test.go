package sweep_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// lineLog keeps the log lines a run's PRs get, worded as the action logs
// them.
type lineLog struct {
	nopLog
	dry bool
	out []string
}

func (l *lineLog) PR(it sweep.Item) { l.out = append(l.out, report.PRLine(it, l.dry)) }

// lineOf is the log line of PR n.
func (l *lineLog) lineOf(n int) string {
	for _, line := range l.out {
		if strings.HasPrefix(line, "#"+strconv.Itoa(n)+" ") {
			return line
		}
	}
	return ""
}

// TestCleanUpLogLinesAgreeWithCounts: a clean-up is its
// own outcome, and its log line says what the counts line counts. The stale
// label taken off a PR a person closed was logged "un-staled: closed or
// merged by a person" while the counts said "un-staled 0, … labels cleaned
// 1"; a branch deletion finished after a stopped run was logged "closed: …
// inactive 0 days".
func TestCleanUpLogLinesAgreeWithCounts(t *testing.T) {
	t.Parallel()
	for _, dry := range []bool{false, true} {
		w := newWorld(t)
		byPerson := w.markedPR(10)
		w.fake.Close(byPerson, alice, daysAgo(3), "")
		w.fake.AddBranch("old-work")
		ours := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
		w.fake.Comment(ours, action, daysAgo(1), "Closed as stale.\n\n<!-- stalepr:close -->")
		w.fake.Close(ours, action, daysAgo(1).Add(time.Second), "")
		inputs := map[string]string{"delete-branch": "true"}
		if dry {
			inputs["debug-only"] = "true"
		}
		log := &lineLog{dry: dry}
		res := w.runLog(inputs, log)

		want := map[bool]struct{ person, branch, counts string }{
			false: {"stale label removed: closed by a person", "branch deletion finished: closed earlier by stalepr", "un-staled 0, closed 0, still stale 0, skipped 0, failed 0, labels cleaned 2"},
			true:  {"would remove stale label: closed by a person", "would finish branch deletion: closed earlier by stalepr", "would un-stale 0, would close 0, still stale 0, skipped 0, failed 0, labels to clean 2"},
		}[dry]
		if got := log.lineOf(byPerson); !strings.HasPrefix(got, "#"+strconv.Itoa(byPerson)+" "+want.person) {
			t.Errorf("dry=%v: closed by a person, logged %q; want %q", dry, got, want.person)
		}
		if got := log.lineOf(ours); !strings.HasPrefix(got, "#"+strconv.Itoa(ours)+" "+want.branch) {
			t.Errorf("dry=%v: branch deletion finished, logged %q; want %q", dry, got, want.branch)
		}
		if got := report.Counts(res); !strings.Contains(got, want.counts) {
			t.Errorf("dry=%v: counts %q lack %q", dry, got, want.counts)
		}
		if !dry && (w.hasLabel(byPerson, "stale") || w.hasLabel(ours, "stale") || w.fake.HasBranch("old-work")) {
			t.Errorf("clean-ups not done: labels %v, %v; branch kept %v", w.labels(byPerson), w.labels(ours), w.fake.HasBranch("old-work"))
		}
	}
}

// TestCleanUpSaysWhoClosed: the stale label taken off a
// closed PR gives the reason that is true: a person's close, a merge, or
// our own close whose run stopped before taking the label off, never "a
// person" for a bot's close.
func TestCleanUpSaysWhoClosed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	byPerson := w.markedPR(10)
	w.fake.Close(byPerson, alice, daysAgo(3), "")
	merged := w.markedPR(10)
	w.fake.Merge(merged, maint, daysAgo(2))
	ours := w.markedPR(40)
	w.fake.Comment(ours, action, daysAgo(1), "Closed as stale.\n\n<!-- stalepr:close -->")
	w.fake.Close(ours, action, daysAgo(1).Add(time.Second), "")
	res := w.run(nil)
	want := map[int]lifecycle.Reason{byPerson: sweep.ReasonClosedByPerson, merged: sweep.ReasonMerged, ours: sweep.ReasonClosedBySelf}
	got := map[int]lifecycle.Reason{}
	for _, it := range res.With(sweep.LabelCleaned) {
		got[it.Number] = it.Reason
	}
	for n, r := range want {
		if got[n] != r {
			t.Errorf("#%d cleaned with reason %q, want %q", n, got[n], r)
		}
	}
}

// TestEveryWriteIsReported: every PR the run wrote to
// (or, in a dry run, would have) has its log line, a row in the job
// summary, and counts in the counts line: marks, un-stales, closes, nudges
// and the turn labels alike. The PRs written to are taken from the fake's
// own record of write requests, so a write kind nobody thought of is
// caught too.
func TestEveryWriteIsReported(t *testing.T) {
	t.Parallel()
	inputs := map[string]string{"days-before-stale": "30", "days-before-close": "7", "days-before-review-nudge": "5",
		"author-turn-label": "waiting-on-author", "reviewers-turn-label": "waiting-on-review", "write-interval": "0s"}
	build := func(t *testing.T) (*world, map[int]string) {
		w := turnWorld(t)
		f := w.fake
		kinds := map[int]string{}
		kinds[w.pr(40)] = "marked stale"
		kinds[w.markedPR(10)] = "un-staled"
		f.Comment(w.markedPR(10), alice, daysAgo(1), "still on it")
		kinds[w.markedPR(20)] = "closed"
		kinds[w.openPR(10, alice)] = "nudged"
		asked := w.openPR(3, alice)
		f.Comment(asked, maint, daysAgo(1), "could you add a test?")
		kinds[asked] = "turn labels updated"
		return w, kinds
	}
	for _, dry := range []bool{false, true} {
		t.Run(fmt.Sprintf("dry=%v", dry), func(t *testing.T) {
			t.Parallel()
			w, kinds := build(t)
			in := map[string]string{}
			for k, v := range inputs {
				in[k] = v
			}
			if dry {
				in["debug-only"] = "true"
			}
			log := &lineLog{dry: dry}
			res := w.runLog(in, log)
			if !res.OK() {
				t.Fatalf("failed %+v, stopped %v", res.Failed(), res.Stopped)
			}
			written := map[int]bool{}
			if !dry {
				issue := regexp.MustCompile(`/(?:issues|pulls)/(\d+)`)
				for _, r := range w.fake.WriteRequests() {
					if m := issue.FindStringSubmatch(r.Path); m != nil {
						n, _ := strconv.Atoi(m[1])
						written[n] = true
					}
				}
			}
			for n := range kinds {
				written[n] = true // what the dry run would write: what the real one does
			}
			summary, counts := report.Summary(res, w.fake.FullName()), report.Counts(res)
			for n := range written {
				if log.lineOf(n) == "" {
					t.Errorf("#%d written to, but no log line", n)
				}
				if !strings.Contains(summary, fmt.Sprintf("/pull/%d)", n)) {
					t.Errorf("#%d written to, but not in the job summary", n)
				}
			}
			for _, k := range []string{"marked stale", "un-staled", "closed", "nudged", "turn labels updated"} {
				word := k
				if dry {
					word = map[string]string{"marked stale": "would mark stale", "un-staled": "would un-stale", "closed": "would close",
						"nudged": "would nudge", "turn labels updated": "turn labels to update"}[k]
				}
				if !regexp.MustCompile(regexp.QuoteMeta(word) + ` [1-9]`).MatchString(counts) {
					t.Errorf("counts %q lack %q", counts, word)
				}
			}
		})
	}
}
