package sweep_test

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/report"
)

// TestFailedTextComesTrue: a PR whose mark failed at its notice, after the
// label went on, was not "left untouched": the log line, the summary and
// the step's error say it was half done. One whose first write failed was
// left untouched, and is said to be.
func TestFailedTextComesTrue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, route string
		partial     bool
	}{
		{"the notice failed after the label", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", true},
		{"the label failed", "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.pr(100)
			w.fake.InjectFault(fakegithub.FaultRule{Route: tc.route, Times: 10, Fault: fakegithub.ServerError(422)})
			res := w.run(nil)
			failed := res.Failed()
			if len(failed) != 1 || failed[0].Number != n || failed[0].Partial != tc.partial {
				t.Fatalf("failed %+v, want #%d with Partial %v", failed, n, tc.partial)
			}
			if w.hasLabel(n, "stale") != tc.partial {
				t.Fatalf("#%d labels %v", n, w.labels(n))
			}
			texts := map[string]string{"log line": report.PRLine(failed[0], false), "summary": report.Summary(res, "octo/repo"),
				"text": report.Text(res, "octo/repo"), "failed line": report.FailedLine(failed)}
			for what, text := range texts {
				if half := strings.Contains(text, "half done"); half != tc.partial {
					t.Errorf("%s says half done: %v, want %v:\n%s", what, half, tc.partial, text)
				}
			}
		})
	}
}
