package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// TestTextHostile: the plain-text summary of a run full of hostile titles,
// reasons and errors holds no control character but the line break (no
// terminal escape), no line that a runner would take for a workflow command,
// and no markdown.
func TestTextHostile(t *testing.T) {
	t.Parallel()
	for _, dry := range []bool{false, true} {
		r := hostileResult(dry)
		for i := range r.Items {
			if r.Items[i].Outcome == sweep.Failed {
				r.Items[i].Title = "\x1b]0;pwned\x07\x1b[2J"
				break
			}
		}
		s := Text(r, "o/r\x1b[31m")
		for i, c := range s {
			if c != '\n' && (unicode.IsControl(c) || invisible(c)) {
				t.Fatalf("dry=%v: control or invisible rune %U at byte %d", dry, c, i)
			}
		}
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "::") {
				t.Errorf("dry=%v: line starts with a workflow command: %q", dry, l)
			}
			// Our own lines carry no markdown; hostile titles are quoted
			// inside lines that start with "#<number>".
			for _, p := range []string{"|", "> ", "## ", "<details>"} {
				if strings.HasPrefix(l, p) {
					t.Errorf("dry=%v: plain text line starts with markdown %q: %q", dry, p, l)
				}
			}
		}
		want := []string{"stalepr: o/r", "This run stopped early: operations-per-run reached.", "12 pull requests that need work were left",
			fmt.Sprintf("Failed (%d)", len(r.Failed())), "API usage: 23 requests (5 writes). Rate limit: 977 of 1000 left."}
		if dry {
			want = append(want, "Dry run: nothing was changed.", "Would act on:", "would mark stale")
		} else {
			want = append(want, "Acted on:", "#1 marked stale: ", fmt.Sprintf("marked stale %d,", len(r.Marked())))
		}
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("dry=%v: text lacks %q:\n%s", dry, w, s)
			}
		}
	}
}

func TestTextCapsRows(t *testing.T) {
	t.Parallel()
	var r sweep.Result
	for i := range maxTextRows + 7 {
		r.Items = append(r.Items, as(sweep.StillStale, item(i+1, "t"))...)
	}
	s := Text(r, "o/r")
	if n := strings.Count(s, "\n  #"); n != maxTextRows {
		t.Errorf("%d rows shown, want %d", n, maxTextRows)
	}
	if !strings.Contains(s, "… and 7 more") {
		t.Errorf("text does not say how many rows it left out:\n%s", s)
	}
}

// TestOutcomeWordsAgree: a PR's log line, the log's counts line, the job
// summary and the text summary word each outcome alike, in a real run and
// in a dry run (capitalised where they start a table cell or a heading).
func TestOutcomeWordsAgree(t *testing.T) {
	t.Parallel()
	add := func(r *sweep.Result, it sweep.Item) { r.Items = append(r.Items, it) }
	tests := []struct {
		action     lifecycle.Action
		outcome    sweep.Outcome
		done, dry  string
		inCounts   bool // counted under these words (a notice counts as marked)
		listResult func(r *sweep.Result, it sweep.Item)
	}{
		{lifecycle.Mark, sweep.Marked, "marked stale", "would mark stale", true, add},
		{lifecycle.Notify, sweep.Notified, "stale notice posted", "would post stale notice", false, add},
		{lifecycle.Unstale, sweep.Unstaled, "un-staled", "would un-stale", true, add},
		{lifecycle.Close, sweep.Closed, "closed", "would close", true, add},
	}
	for _, tt := range tests {
		for _, dry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/dry=%v", tt.done, dry), func(t *testing.T) {
				want := tt.done
				if dry {
					want = tt.dry
				}
				it := item(7, "title")
				it.Action, it.Outcome = tt.action, tt.outcome
				r := sweep.Result{DryRun: dry, RateRemaining: -1}
				tt.listResult(&r, it)

				if line := PRLine(it, dry); !strings.HasPrefix(line, "#7 "+want+": ") {
					t.Errorf("log line %q does not start with %q", line, "#7 "+want)
				}
				if s := Summary(r, "o/r"); !strings.Contains(s, "| "+want+" |") {
					t.Errorf("summary's outcome column lacks %q:\n%s", want, s)
				}
				if s := Text(r, "o/r"); !strings.Contains(s, "  #7 "+want+": ") {
					t.Errorf("text summary lacks %q:\n%s", want, s)
				}
				if !tt.inCounts {
					return
				}
				if c := Counts(r); !strings.Contains(c, want+" 1,") {
					t.Errorf("counts line %q lacks %q", c, want+" 1")
				}
				if s := Text(r, "o/r"); !strings.Contains(s, want+" 1,") {
					t.Errorf("text summary's counts lack %q:\n%s", want+" 1", s)
				}
				title := strings.ToUpper(want[:1]) + want[1:]
				if s := Summary(r, "o/r"); !strings.Contains(s, "| "+title+" | 1 |") {
					t.Errorf("summary's counts lack %q:\n%s", title, s)
				}
			})
		}
	}
	// The clean-up count, which has no log line of its own.
	for dry, want := range map[bool][2]string{false: {"labels cleaned 1", "| Labels cleaned | 1 |"}, true: {"labels to clean 1", "| Labels to clean | 1 |"}} {
		r := sweep.Result{DryRun: dry, RateRemaining: -1, Items: as(sweep.LabelCleaned, item(8, "gone"))}
		if c, s, md := Counts(r), Text(r, "o/r"), Summary(r, "o/r"); !strings.Contains(c, want[0]) || !strings.Contains(s, want[0]) || !strings.Contains(md, want[1]) {
			t.Errorf("dry=%v: clean-up count not worded %q / %q:\n%s\n%s\n%s", dry, want[0], want[1], c, s, md)
		}
	}
}

func TestCapitalise(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "un-staled": "Un-staled", "would close": "Would close", "élan": "Élan", "X": "X"} {
		if got := capitalise(in); got != want {
			t.Errorf("capitalise(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEveryOutcomeWorded: every outcome of the sweep has its row in the one
// table of words, and an item of it counts under that row's entry of the
// counts line, once, in a run and in a dry run.
func TestEveryOutcomeWorded(t *testing.T) {
	t.Parallel()
	for o := sweep.Outcome(1); o.String() != fmt.Sprintf("Outcome(%d)", int(o)); o++ {
		row, ok := outcomes[o]
		if !ok || row.words.done == "" || row.words.dry == "" {
			t.Errorf("outcome %s has no words", o)
			continue
		}
		for _, dry := range []bool{false, true} {
			it := item(7, "title")
			it.Outcome = o
			r := sweep.Result{DryRun: dry, RateRemaining: -1, Items: []sweep.Item{it}}
			if line := PRLine(it, dry); !strings.HasPrefix(line, "#7 "+row.words.in(dry)) {
				t.Errorf("%s: log line %q does not start with %q", o, line, row.words.in(dry))
			}
			total := 0
			for _, tr := range tally(r) {
				total += tr.n
				if tr.n == 1 && (row.count == nil || tr.words != *row.count) {
					t.Errorf("%s counted under %q", o, tr.words.in(dry))
				}
			}
			if want := map[bool]int{true: 1, false: 0}[row.count != nil]; total != want {
				t.Errorf("%s counted %d times in %q, want %d", o, total, Counts(r), want)
			}
		}
	}
}
