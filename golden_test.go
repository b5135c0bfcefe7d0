package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/testenv"
)

// TestGoldenSandbox runs the sandbox (go run . -sandbox testdata/sandbox) as
// a workflow and in a terminal, for real and as a dry run, and compares what
// a user reads (the log, the job summary, the outputs) with the files under
// testdata/golden. After a change of wording or behaviour, run
//
//	go test -run TestGolden . -update
//
// and review the diff of testdata/golden like any other change.
func TestGoldenSandbox(t *testing.T) {
	t.Parallel()
	sandbox := []string{"-sandbox", filepath.Join("testdata", "sandbox")}
	for _, tc := range []struct {
		name     string
		workflow bool // as the Actions runner runs it: workflow commands, file commands
		args     []string
	}{
		{"sandbox", true, sandbox},
		{"sandbox-dry-run", true, append(sandbox, "-debug-only")},
		{"sandbox-terminal", false, sandbox},
		{"sandbox-terminal-dry-run", false, append(sandbox, "-debug-only")},
		// The checks of the sample's #3 and #8 (docs/development.md).
		{"sandbox-terminal-checks", false, append(sandbox, "-stale-clock", "author-turn", "-author-turn-when-checks-fail", "-days-before-review-nudge", "7")},
		// One event's run on its pull request, from each sample payload.
		{"sandbox-event-comment", false, append(sandbox, "-sandbox-event", "issue_comment="+filepath.Join("testdata", "sandbox", "events", "comment.json"))},
		{"sandbox-event-review", false, append(sandbox, "-sandbox-event", "pull_request_review="+filepath.Join("testdata", "sandbox", "events", "review.json"))},
		{"sandbox-event-push", false, append(sandbox, "-sandbox-event", "pull_request="+filepath.Join("testdata", "sandbox", "events", "push.json"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := goldenRun(t, tc.workflow, tc.args)
			// The same run at the same time must print the same: anything
			// else (map order, the real clock) would make the golden files
			// flaky and the sandbox unreproducible.
			again := goldenRun(t, tc.workflow, tc.args)
			for name, text := range got {
				if again[name] != text {
					t.Errorf("%s differs between two identical runs: the output is not deterministic", name)
				}
			}
			for name, text := range got {
				testenv.Golden(t, filepath.Join("testdata", "golden", tc.name, name), text)
			}
		})
	}
}

// goldenRun runs the program once with args at t0 and returns what the user
// reads, by golden file name, with the random fence tokens and heredoc
// delimiters replaced by stable names, and the fake GitHub's address (its
// PR links: on Enterprise Server the web host is the API host, and the fake
// serves both on a free local port) by http://fake-github.
func goldenRun(t *testing.T, workflow bool, args []string) map[string]string {
	t.Helper()
	e := env{}
	if workflow {
		dir := t.TempDir()
		e = env{
			"GITHUB_ACTIONS":      "true",
			"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
			"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		}
	}
	o := runWith(t, e, args...)
	if o.code != ExitOK {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitOK, o)
	}
	n := newTokenNames()
	norm := func(s string) string { return fakeAddr.ReplaceAllString(n.replace(s), "http://fake-github") }
	if !workflow {
		// A terminal's log goes to stderr, its summary alone to stdout.
		return map[string]string{"log.txt": norm(o.stderr), "summary.txt": norm(o.stdout)}
	}
	if o.stderr != "" {
		t.Errorf("stderr is not empty:\n%s", o.stderr)
	}
	return map[string]string{"log.txt": norm(o.stdout), "outputs.txt": norm(o.outputFile), "summary.md": norm(o.summaryFile)}
}

var fakeAddr = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)

// randomToken matches the random parts of the log and of GITHUB_OUTPUT: the
// stop-commands fence's token and the heredoc delimiters.
var randomToken = regexp.MustCompile(`(::stop-commands::|::|ghadelimiter_)([0-9a-f]{32})\b`)

// tokenNames names each random token by its first appearance, so a golden
// file still shows which fence closes which.
type tokenNames map[string]string

func newTokenNames() tokenNames { return tokenNames{} }

func (n tokenNames) replace(s string) string {
	return randomToken.ReplaceAllStringFunc(s, func(m string) string {
		sub := randomToken.FindStringSubmatch(m)
		name, ok := n[sub[2]]
		if !ok {
			name = "<random-" + string(rune('A'+len(n))) + ">"
			n[sub[2]] = name
		}
		return sub[1] + name
	})
}

// TestGoldenBusySandbox is the job summary of a busy repository: the
// sandbox with 2,000 generated pull requests (-sandbox-synthetic 2000),
// more than one run's operations-per-run can act on. Its first screen says
// how many pull requests are open (or that the run did not count them),
// what the run did, and why it stopped where it did.
func TestGoldenBusySandbox(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	got := goldenRun(t, true, []string{"-sandbox", filepath.Join("testdata", "sandbox"), "-sandbox-synthetic", "2000"})
	testenv.Golden(t, filepath.Join("testdata", "golden", "sandbox-2000", "summary.md"), got["summary.md"])
}

// TestGoldenSwitchDay is the job summary of the first run after a switch
// from actions/stale with every part of stalepr on (the fair clock, the
// nudge, the turn labels, the closure audit reopening): the sandbox with
// 2,000 generated pull requests on the day of a switch, and a budget
// that reaches everything, so every kind of write is counted and listed.
func TestGoldenSwitchDay(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	got := goldenRun(t, true, []string{"-sandbox", filepath.Join("testdata", "sandbox"), "-sandbox-synthetic", "2000",
		"-stale-clock", "author-turn", "-days-before-review-nudge", "14", "-review-nudge-label", "waiting-on-review",
		"-author-turn-label", "waiting-on-author", "-audit-closed-days", "30", "-reopen-wrongly-closed",
		"-operations-per-run", "5000"})
	summary := got["summary.md"]
	for _, kind := range []string{"| Marked stale |", "| Un-staled |", "| Closed |", "| Nudged |", "| Turn labels updated |", "| Reopened |"} {
		if !regexp.MustCompile(regexp.QuoteMeta(kind) + ` [1-9]`).MatchString(summary) {
			t.Errorf("the switch day's counts lack %s with a number above 0", kind)
		}
	}
	testenv.Golden(t, filepath.Join("testdata", "golden", "switch-day", "summary.md"), summary)
}

// hostileTitles are pull-request titles that would be commands or markup
// where a title is printed: a workflow command in the log, a table's pipes
// and a line break in the job summary, HTML and a script in the summary.
var hostileTitles = []string{
	"::warning::Injected workflow command ::set-output name=x::y",
	"Fix table | breaking | markdown\nwith a newline",
	"<b>Bold</b> claims & <script>alert(1)</script>",
	"[a link](javascript:alert(1)) ::error::closed",
}

// hostileRepo is a sandbox repository whose pull requests bear
// hostileTitles: the first three inactive long enough to be marked, the
// last marked 40 days ago and closed by the run.
func hostileRepo(t *testing.T) string {
	t.Helper()
	type event struct {
		Type    string `json:"type"`
		DaysAgo int    `json:"days_ago"`
	}
	type item struct {
		Number  int     `json:"number"`
		Title   string  `json:"title"`
		User    string  `json:"user"`
		Head    string  `json:"head"`
		Created int     `json:"created_days_ago"`
		Updated int     `json:"updated_days_ago,omitempty"`
		Events  []event `json:"events,omitempty"`
	}
	items := []item{
		{Number: 1, Title: hostileTitles[0], User: "mallory", Head: "inject", Created: 150, Updated: 140},
		{Number: 2, Title: hostileTitles[1], User: "nina", Head: "table-pipes", Created: 130, Updated: 125},
		{Number: 3, Title: hostileTitles[2], User: "oscar", Head: "html-title", Created: 110, Updated: 105},
		{Number: 4, Title: hostileTitles[3], User: "peggy", Head: "link-title", Created: 200, Events: []event{{Type: "marked_stale", DaysAgo: 40}}},
	}
	repo, err := json.MarshalIndent(map[string]any{"owner": "octo-org", "repo": "widgets", "default_branch": "main", "items": items}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "hostile-titles")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"repo.json": repo, "inputs.json": []byte(`{"delete-branch": "true"}`)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGoldenHostileTitles runs the sandbox on pull requests with hostile
// titles, as TestGoldenSandbox runs the sample, and compares what a user
// reads with testdata/golden/hostile-titles. In a workflow the titles stay
// inside the log's stop-commands fence, come back whole from the outputs,
// and are text in the job summary: no HTML, no table cell split, no line
// break in a row.
func TestGoldenHostileTitles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		workflow bool
		dry      bool
	}{
		{"workflow", true, false},
		{"workflow-dry-run", true, true},
		{"terminal", false, false},
		{"terminal-dry-run", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := hostileRepo(t)
			args := []string{"-sandbox", dir}
			if tc.dry {
				args = append(args, "-debug-only")
			}
			got := goldenRun(t, tc.workflow, args)
			for name, text := range got {
				text = strings.ReplaceAll(text, dir, "hostile-titles")
				got[name] = text
				testenv.Golden(t, filepath.Join("testdata", "golden", "hostile-titles", tc.name, name), text)
			}
			if tc.workflow {
				checkHostileWorkflow(t, got)
			}
		})
	}
}

// checkHostileWorkflow checks a workflow run's log, outputs and job summary
// on hostileRepo (see TestGoldenHostileTitles).
func checkHostileWorkflow(t *testing.T, got map[string]string) {
	t.Helper()
	fenced, titles := false, 0
	for _, l := range strings.Split(got["log.txt"], "\n") {
		switch {
		case strings.HasPrefix(l, "::stop-commands::"):
			fenced = true
		case fenced && strings.HasPrefix(l, "::") && strings.HasSuffix(l, "::"):
			fenced = false
		case strings.Contains(l, "::warning::Injected") || strings.Contains(l, "::error::closed"):
			titles++
			if !fenced {
				t.Errorf("a title with a workflow command is outside the stop-commands fence: %q", l)
			}
		}
	}
	if titles != 2 {
		t.Errorf("the log shows the titles with workflow commands %d times, want 2 (one line each):\n%s", titles, got["log.txt"])
	}

	var listed []string
	for name, value := range parseOutputFile(t, got["outputs.txt"]) {
		if name == "wrongly-closed-prs" {
			continue
		}
		for _, pr := range decodeOutput(t, name, value) {
			listed = append(listed, pr.Title)
		}
	}
	slices.Sort(listed)
	want := slices.Sorted(slices.Values(hostileTitles))
	if !slices.Equal(listed, want) {
		t.Errorf("the outputs list the titles %q, want each hostile title once, whole: %q", listed, want)
	}

	summary := got["summary.md"]
	for _, raw := range []string{"<b>", "<script>", "](javascript:", "\nwith a newline"} {
		if strings.Contains(summary, raw) {
			t.Errorf("the job summary holds %q as written in a title:\n%s", raw, summary)
		}
	}
	// A row has as many cell bars as its table's header, the line before
	// the | --- | line.
	lines := strings.Split(summary, "\n")
	rows, columns := 0, 0
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "| ---") && i > 0:
			columns = strings.Count(lines[i-1], "|")
		case strings.HasPrefix(l, "| [#"):
			rows++
			if strings.Count(l, "|") != columns {
				t.Errorf("a row of the job summary has %d cell bars, its header %d: a title split it: %q", strings.Count(l, "|"), columns, l)
			}
		}
	}
	if rows == 0 {
		t.Errorf("the job summary lists no pull request:\n%s", summary)
	}
}
