package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

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
		r.Failed[0].Title = "\x1b]0;pwned\x07\x1b[2J"
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
			fmt.Sprintf("Failed (%d)", len(r.Failed)), "API usage: 23 requests (5 writes). Rate limit: 977 of 1000 left."}
		if dry {
			want = append(want, "Dry run: nothing was changed.", "Would act on:", "would mark stale")
		} else {
			want = append(want, "Acted on:", "#1 marked stale: ", fmt.Sprintf("marked stale %d,", len(r.Marked)))
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
		r.Stale = append(r.Stale, item(i+1, "t"))
	}
	s := Text(r, "o/r")
	if n := strings.Count(s, "\n  #"); n != maxTextRows {
		t.Errorf("%d rows shown, want %d", n, maxTextRows)
	}
	if !strings.Contains(s, "… and 7 more") {
		t.Errorf("text does not say how many rows it left out:\n%s", s)
	}
}
