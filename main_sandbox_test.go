package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The sandbox's sample beyond a sweep's: checks on a PR's head, assignment
// events, and one event's run on its pull request (-sandbox-event), each
// through the fake GitHub's HTTP and GraphQL as a real run reads them.

var sampleDir = filepath.Join("testdata", "sandbox")

// TestSandboxEvents: each sample payload under testdata/sandbox/events runs
// as a workflow run its event started: the comment, review or push it
// reports is made in the sample first, then its pull request alone is
// evaluated, and un-staled (each is a stale PR of the sample that the
// sweep would close or keep stale).
func TestSandboxEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ flag, made, pr string }{
		{"issue_comment=" + filepath.Join(sampleDir, "events", "comment.json"), "erin's comment on #16", "#16"},
		{"pull_request_review=" + filepath.Join(sampleDir, "events", "review.json"), "bob's review on #20", "#20"},
		{"pull_request=" + filepath.Join(sampleDir, "events", "push.json"), "frank's push on #17", "#17"},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			t.Parallel()
			o := runWith(t, env{}, "-sandbox", sampleDir, "-sandbox-event", tc.flag)
			if o.code != ExitOK {
				t.Fatalf("exit %d, want %d\n%s", o.code, ExitOK, o)
			}
			name, _, _ := strings.Cut(tc.flag, "=")
			for _, want := range []string{
				"Sandbox event: " + tc.made + " made in the sample",
				"Evaluating " + tc.pr + " of octo-org/widgets after its " + name + " event",
				tc.pr + " un-staled: activity by a person after the mark",
				"Looked at " + tc.pr + " alone",
			} {
				if !strings.Contains(o.stdout+o.stderr, want) {
					t.Errorf("the run does not say %q:\n%s", want, o)
				}
			}
			// Without the event's comment, review or push the same PR is
			// not un-staled: the run acts on what the event made.
			if sweep := runWith(t, env{}, "-sandbox", sampleDir); strings.Contains(sweep.stderr, tc.pr+" un-staled") {
				t.Errorf("the sweep un-stales %s without the event: the sample does not show what the event does", tc.pr)
			}
		})
	}
}

// TestSandboxEventMistakes: -sandbox-event's mistakes are refused before
// the run, with what to write instead; a payload whose pull request the
// sample lacks is refused before its run too.
func TestSandboxEventMistakes(t *testing.T) {
	t.Parallel()
	comment := filepath.Join(sampleDir, "events", "comment.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-sandbox-event", "issue_comment=" + comment}, "give -sandbox DIR too"},
		{[]string{"-sandbox", sampleDir, "-sandbox-event", comment}, "want NAME=FILE"},
		{[]string{"-sandbox", sampleDir, "-sandbox-event", "issue_coment=" + comment}, "did you mean issue_comment?"},
		{[]string{"-sandbox", sampleDir, "-sandbox-event", "schedule=" + comment}, "sweeps the repository"},
		{[]string{"-sandbox", sampleDir, "-sandbox-evnt", "issue_comment=" + comment}, "did you mean -sandbox-event?"},
		{[]string{"-sandbox", sampleDir, "-sandbox-event", "issue_comment=" + filepath.Join(sampleDir, "events", "no-such.json")}, "read the issue_comment event's payload"},
		{[]string{"-sandbox", sampleDir, "-sandbox-event", "pull_request_review=" + comment}, "names no pull request"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			o := runWith(t, env{}, tc.args...)
			if o.code != ExitUsage || !strings.Contains(o.stderr, tc.want) || strings.Contains(o.stderr, "Evaluating") {
				t.Errorf("exit %d, want %d and %q before any run:\n%s", o.code, ExitUsage, tc.want, o)
			}
		})
	}
	dir := sandboxWith(t, "{}")
	payload, err := os.ReadFile(comment)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "event.json"), []byte(strings.Replace(string(payload), `"number": 16`, `"number": 99`, 1)), 0o644))
	o := runWith(t, env{}, "-sandbox", dir, "-sandbox-event", "issue_comment="+filepath.Join(dir, "event.json"))
	if o.code != ExitUsage || !strings.Contains(o.stderr, "#99 is not in the sample") {
		t.Errorf("exit %d, want %d and #99 refused:\n%s", o.code, ExitUsage, o)
	}
}

// TestSandboxChecksAndAssignments: the sample's checks and assignment
// events are read as GitHub's. With -stale-clock author-turn
// -author-turn-when-checks-fail, #8's required check, failing on the head
// it was opened with, puts it on its author's turn and marks it (without
// the input it waits on its reviewers), and #3, whose failure after its
// author's push was re-run green 3 days ago, waits on its reviewers since
// then, so a 7-day review nudge is not due (without the input it is). #9
// was assigned to dave by an assigned event, #7 assigned and unassigned:
// with -exempt-assignees dave #9 is exempt and #7 is marked.
func TestSandboxChecksAndAssignments(t *testing.T) {
	t.Parallel()
	turn := []string{"-sandbox", sampleDir, "-stale-clock", "author-turn", "-days-before-review-nudge", "7", "-review-nudges-per-run", "50"}
	on := runWith(t, env{}, append(turn, "-author-turn-when-checks-fail")...)
	off := runWith(t, env{}, turn...)
	for _, o := range []outcome{on, off} {
		if o.code != ExitOK {
			t.Fatalf("exit %d, want %d\n%s", o.code, ExitOK, o)
		}
	}
	marked8 := regexp.MustCompile(`(?m)^#8 marked stale: \d+ days on the author's turn`)
	if !marked8.MatchString(on.stderr) || marked8.MatchString(off.stderr) {
		t.Errorf("#8 marked with the input on and not off, want on only:\non:\n%s\noff:\n%s", on.stderr, off.stderr)
	}
	if !strings.Contains(on.stdout, `#3 3 days in turn — "Document the polishing API"`) || strings.Contains(on.stderr, "#3 nudged") {
		t.Errorf("#3 waits on its reviewers since its check went green 3 days ago, want no nudge:\n%s", on)
	}
	if !strings.Contains(off.stderr, "#3 nudged") {
		t.Errorf("input off, #3 (30 days on its reviewers' turn) is not nudged:\n%s", off.stderr)
	}
	o := runWith(t, env{}, "-sandbox", sampleDir, "-exempt-assignees", "dave")
	if !strings.Contains(o.stdout, `#9 exempt assignee — "Add a widget colour option"`) || !strings.Contains(o.stderr, "#7 marked stale: inactive 230 days") {
		t.Errorf("want #9 exempt (assigned to dave) and #7 marked (dave unassigned himself):\n%s", o)
	}
}
