package main

// Adopting stalepr on a busy repository without a surprise.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/fleet"
)

// refuseWrites makes GitHub answer every write 403 with msg, as it does
// to a token without write permission.
func refuseWrites(w *world, msg string) {
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if info.Write {
			return fakegithub.StatusFault(403, `{"message":"`+msg+`"}`)
		}
		return nil
	})
}

// TestRunStopsAtFirstWriteRefused: a token that may not write stops the
// run at its first write, with one ::error:: that says the fix in the
// token's own terms, and exit 1: not one refused request per PR.
func TestRunStopsAtFirstWriteRefused(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.AddSynthetic(60, 7) // many PRs to mark or close
	refuseWrites(w, "Resource not accessible by integration")
	e := w.env(t)
	e[inputVar("dashboard-issue")] = "Pull request queue" // a write too: not tried
	o := runWith(t, e)
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	if n := len(w.fake.WriteRequests()); n != 1 {
		t.Errorf("%d writes sent, want 1: the first refusal must stop the run", n)
	}
	errs := testenv.ErrorLines(o.stdout)
	if len(errs) != 1 {
		t.Fatalf("%d error annotations, want 1\n%s", len(errs), strings.Join(errs, "\n"))
	}
	for _, s := range []string{"Resource not accessible by integration", "`permissions: pull-requests: write, issues: write`", "GitHub App", "left for the next run"} {
		if !strings.Contains(errs[0], s) {
			t.Errorf("error line %q\nwant it to say %q", errs[0], s)
		}
	}
	if !strings.Contains(o.summaryFile, "GitHub refused this token's first write") {
		t.Errorf("the summary does not say the run stopped on a refused write:\n%s", o.summaryFile)
	}
	if strings.Count(o.stdout, "Resource not accessible") > 3 {
		t.Errorf("the refusal is repeated in the log:\n%s", o.stdout)
	}
}

// TestWriteRefusedInTheTokensTerms: the advice names where that kind of
// token gets its permissions, as its prefix says.
func TestWriteRefusedInTheTokensTerms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		token, msg string
		want, not  []string
	}{
		{"github_pat_" + tokenSecret, "Resource not accessible by personal access token",
			[]string{"fine-grained personal access token needs Pull requests: Read and write and Issues: Read and write"}, []string{"permissions:", "classic"}},
		{"ghp_" + tokenSecret, "Must have admin rights to Repository.",
			[]string{"classic personal access token needs the repo scope"}, []string{"permissions:", "fine-grained"}},
		{"ghs_" + tokenSecret, "Resource not accessible by integration",
			[]string{"GitHub App's token", "Pull requests: Read and write"}, []string{"permissions:"}},
	}
	for _, tc := range cases {
		t.Run(tc.token[:4], func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			w.fake.SetToken(tc.token)
			refuseWrites(w, tc.msg)
			e := w.terminalEnv()
			e["GITHUB_TOKEN"] = tc.token
			o := runWith(t, e, "-repo", testRepo)
			if o.code != ExitFailed {
				t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
			}
			if n := len(w.fake.WriteRequests()); n != 1 {
				t.Errorf("%d writes sent, want 1", n)
			}
			for _, s := range tc.want {
				if !strings.Contains(o.stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, o.stderr)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(o.stderr, s) {
					t.Errorf("stderr speaks of %q, not this token's kind:\n%s", s, o.stderr)
				}
			}
		})
	}
}

// TestRunGroupsIdenticalFailures: the same error on many PRs is one row of
// the summary and a short line per PR in the log, not many copies of it.
func TestRunGroupsIdenticalFailures(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.AddSynthetic(60, 7)
	const msg = "Validation Failed: this server keeps no labels today"
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if info.Write {
			return fakegithub.StatusFault(422, `{"message":"`+msg+`"}`)
		}
		return nil
	})
	o := runWith(t, w.env(t))
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	failed := strings.Count(o.stdout, " failed: ")
	if failed < 3 {
		t.Fatalf("%d failure lines in the log, want several to group\n%s", failed, o.stdout)
	}
	// Each distinct request (a label, a comment, a label's removal) says
	// its error once, and the ::error:: line the first one.
	if n := strings.Count(o.stdout, msg); n > 4 {
		t.Errorf("the log repeats the error %d times for %d failures\n%s", n, failed, o.stdout)
	}
	if n := strings.Count(o.summaryFile, msg); n > 3 {
		t.Errorf("the summary repeats the error %d times for %d failures\n%s", n, failed, o.summaryFile)
	}
	if !strings.Contains(o.summaryFile, "the same for ") {
		t.Errorf("the summary does not say which PRs failed the same way\n%s", o.summaryFile)
	}
}

// TestRunBusySummaryMarksWhatItDidNotCount: on a repository with more open
// PRs than the listing returns, the summary does not count the PRs it did
// not list as 0, and says why the listing stopped where it did.
func TestRunBusySummaryMarksWhatItDidNotCount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		budget string
		want   []string
		not    []string
	}{
		// GitHub's totalCount tells how many are open, however far the
		// listing went.
		{"stale cutoff", "", []string{"up to the stale cutoff", "{open} pull requests open; looked at", "| under 1 week | not counted |  |", "That is {unlisted} of the {open} open.",
			"without the stale label last active up to", "The closes are all known"},
			[]string{"| under 1 week | 0 |", "+ not counted"}},
		{"budget", "40", []string{"as many as this run's requests could act on", "found as much work as this run's requests could do"},
			[]string{"stops past the stale cutoff", "| under 1 week | 0 |"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			w.fake.AddSynthetic(400, 3)
			e := w.env(t)
			if tc.budget != "" {
				// More PRs due a mark than one page: the listing stops
				// after its first page, before the stale cutoff.
				for i := range 250 {
					w.fake.AddPR(fakegithub.Issue{Title: "old", User: alice, CreatedAt: daysAgo(400), UpdatedAt: daysAgo(300 - float64(i)/2)})
				}
				e[inputVar("operations-per-run")] = tc.budget
			}
			open := 0
			for _, is := range w.fake.Issues() {
				if is.IsPR && is.State == "open" {
					open++
				}
			}
			o := runWith(t, e)
			for _, s := range tc.want {
				s = strings.ReplaceAll(s, "{open}", strconv.Itoa(open))
				if m := regexp.MustCompile(`looked at (\d+) of them`).FindStringSubmatch(o.summaryFile); m != nil {
					looked, _ := strconv.Atoi(m[1])
					s = strings.ReplaceAll(s, "{unlisted}", strconv.Itoa(open-looked))
				}
				if !strings.Contains(o.summaryFile, s) {
					t.Errorf("the summary does not say %q", s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(o.summaryFile, s) {
					t.Errorf("the summary says %q", s)
				}
			}
			if t.Failed() {
				t.Log(o.summaryFile)
			}
		})
	}
}

// TestRunTextSummaryShowsTurns: the terminal's summary has the queue by
// turn that the job summary has.
func TestRunTextSummaryShowsTurns(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.terminalEnv(), "-repo", testRepo, "-stale-clock", "author-turn", "-debug-only")
	if o.code != ExitOK {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	for _, s := range []string{"Whose turn it is:", "The turn is known for"} {
		if !strings.Contains(o.stdout, s) {
			t.Errorf("the text summary does not show %q:\n%s", s, o.stdout)
		}
	}
}

// TestRunWarnsOfUnknownInputs: a name that is no input and near none, in
// a workflow's with: (an INPUT_* variable) or a sandbox's inputs.json, is
// named in a warning and the run goes on; one near an input is refused
// (TestRunRefusesMisspeltInputs).
func TestRunWarnsOfUnknownInputs(t *testing.T) {
	t.Parallel()
	t.Run("workflow", func(t *testing.T) {
		t.Parallel()
		w, _ := newWorld(t, false)
		e := w.env(t)
		e["INPUT_ZZZZZZZZZZZZ"] = "1"
		e["INPUT_STALE-ISSUE-LABELS"] = "old" // nearest an issue input of actions/stale, ignored anyway
		o := runWith(t, e)
		if o.code != ExitOK {
			t.Fatalf("exit %d\n%s", o.code, o)
		}
		want := []string{`::warning::"zzzzzzzzzzzz" is not an input of stalepr and is ignored (stalepr's docs/inputs.md lists them)`,
			`::warning::"stale-issue-labels" is not an input of stalepr and is ignored; did you mean stale-issue-label?`}
		for _, s := range want {
			if !strings.Contains(o.stdout, s) {
				t.Errorf("the log does not warn %q\n%s", s, o.stdout)
			}
		}
		if n := strings.Count(o.stdout, "is not an input of stalepr"); n != 2 {
			t.Errorf("%d unknown-input warnings, want 2: the inputs action.yml declares are known", n)
		}
	})
	t.Run("sandbox", func(t *testing.T) {
		t.Parallel()
		dir := sandboxWith(t, `{"zzzzzzzzzzzz": "30", "debug-only": "true"}`)
		o := runWith(t, env{}, "-sandbox", dir)
		if o.code != ExitOK || !strings.Contains(o.stderr, `warning: "zzzzzzzzzzzz" is not an input of stalepr and is ignored`) {
			t.Errorf("no warning of the unknown input in inputs.json\n%s", o)
		}
	})
}

// sandboxWith is a copy of testdata/sandbox with inputs as its inputs.json.
func sandboxWith(t *testing.T, inputs string) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := os.ReadFile(filepath.Join("testdata", "sandbox", "repo.json"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "repo.json"), repo, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "inputs.json"), []byte(inputs), 0o644))
	return dir
}

// TestRunRefusesMisspeltInputs: a misspelt preview (dry-run, which stalepr
// does not have; debug_only, which the runner passes as INPUT_DEBUG_ONLY)
// would run live with debug-only's default: the run is refused before any
// request, exit 2, with an ::error:: naming the input and what it takes.
// So is any name near an input, in a workflow, a fleet or a sandbox.
func TestRunRefusesMisspeltInputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ variable, name, want string }{
		{"INPUT_DRY-RUN", "dry-run", "whose dry run is debug-only (true or false): refused rather than run writing; rename it debug-only"},
		{"INPUT_DEBUG_ONLY", "debug_only", "did you mean debug-only (true or false)? Refused rather than run as if debug-only were unset"},
		{"INPUT_DAYS-BEFOR-STALE", "days-befor-stale", "did you mean days-before-stale (a whole number of days, or -1 for never)?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			e := w.env(t)
			e[tc.variable] = "true"
			o := runWith(t, e)
			errs := testenv.ErrorLines(o.stdout)
			want := "::error title=stalepr%3A " + tc.name + "::input \"" + tc.name + "\": is not an input of stalepr"
			if o.code != ExitUsage || len(errs) != 1 || !strings.HasPrefix(errs[0], want) || !strings.Contains(errs[0], tc.want) {
				t.Errorf("exit %d, errors %q; want %d and one error %q ... %q\n%s", o.code, errs, ExitUsage, want, tc.want, o)
			}
			if n := w.fake.Count(); n != 0 {
				t.Errorf("%d requests reached GitHub, want none: %v", n, w.fake.CountBy())
			}
		})
	}
	t.Run("fleet", func(t *testing.T) {
		t.Parallel()
		fake, e := fleetRepo(t)
		e["INPUT_DEBUG_ONLY"] = "true"
		o := runWith(t, e)
		if o.code != ExitUsage || !strings.Contains(o.stdout, `input "debug_only": is not an input of stalepr; did you mean debug-only`) {
			t.Errorf("want exit %d and the error on debug_only: %v", ExitUsage, o)
		}
		if n := fake.Count(); n != 0 {
			t.Errorf("%d requests reached GitHub, want none, not even the read of %s: %v", n, fleet.RepoFilePath, fake.CountBy())
		}
	})
	t.Run("sandbox", func(t *testing.T) {
		t.Parallel()
		o := runWith(t, env{}, "-sandbox", sandboxWith(t, `{"dry-run": "true"}`))
		if o.code != ExitUsage || !strings.Contains(o.stderr, `input "dry-run": is not an input of stalepr, whose dry run is debug-only`) {
			t.Errorf("want exit %d and the error on dry-run: %v", ExitUsage, o)
		}
	})
}

// TestRunReadsAFlowList: exempt-pr-labels: "[pinned, security]", a YAML
// list in a string as people write one, exempts the pull requests labelled
// pinned or security, not those labelled "[pinned" or "security]".
func TestRunReadsAFlowList(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.Label(w.toMark, alice, daysAgo(200), "pinned")
	e := w.env(t)
	e[inputVar("exempt-pr-labels")] = "[pinned, security]"
	o := runWith(t, e)
	if o.code != ExitOK {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	if w.hasLabel(w.toMark, "stale") {
		t.Errorf("#%d, labelled pinned, was marked stale under exempt-pr-labels [pinned, security]", w.toMark)
	}
	if w.fake.MustIssue(w.toClose).State != "closed" {
		t.Errorf("#%d was not closed: the run did not sweep", w.toClose)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunExemptAuthorByAppName: exempt-pr-authors: dependabot exempts the
// pull requests of dependabot[bot], the login GitHub gives the App's PRs.
func TestRunExemptAuthorByAppName(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	n := w.fake.AddPR(fakegithub.Issue{Title: "Bump lodash", User: fakegithub.Bot("dependabot[bot]"),
		CreatedAt: daysAgo(200), UpdatedAt: daysAgo(150)})
	e := w.env(t)
	e[inputVar("exempt-pr-authors")] = "dependabot"
	o := runWith(t, e)
	if o.code != ExitOK {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	if w.hasLabel(n, "stale") {
		t.Errorf("dependabot[bot]'s PR #%d was marked stale with exempt-pr-authors: dependabot", n)
	}
	if !w.hasLabel(w.toMark, "stale") {
		t.Errorf("#%d, by alice, was not marked: the exemption must not reach others", w.toMark)
	}
}

// TestCLIStreams: at a terminal the log goes to stderr and the summary
// alone to stdout, or to -summary-file, so it can be redirected whole.
func TestCLIStreams(t *testing.T) {
	t.Parallel()
	logLine := regexp.MustCompile(`(?m)^#\d+ (marked stale|closed|un-staled): `)
	t.Run("stdout", func(t *testing.T) {
		t.Parallel()
		w, _ := newWorld(t, false)
		o := runWith(t, w.terminalEnv(), "-repo", testRepo, "-summary=markdown")
		if o.code != ExitOK {
			t.Fatalf("exit %d\n%s", o.code, o)
		}
		if !strings.HasPrefix(o.stdout, "## stalepr: octo/repo\n") || logLine.MatchString(o.stdout) {
			t.Errorf("stdout is not the summary alone:\n%s", o.stdout)
		}
		if !logLine.MatchString(o.stderr) {
			t.Errorf("the log is not on stderr:\n%s", o.stderr)
		}
	})
	t.Run("file", func(t *testing.T) {
		t.Parallel()
		w, _ := newWorld(t, false)
		path := filepath.Join(t.TempDir(), "summary.md")
		o := runWith(t, w.terminalEnv(), "-repo", testRepo, "-summary=markdown", "-summary-file", path)
		if o.code != ExitOK {
			t.Fatalf("exit %d\n%s", o.code, o)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if o.stdout != "" || !strings.HasPrefix(string(got), "## stalepr: octo/repo\n") || logLine.Match(got) {
			t.Errorf("-summary-file: stdout %q, file:\n%s", o.stdout, got)
		}
	})
}

// TestCLIRepoTokenFlagHint: -repo-token, the workflow's input, is no flag:
// the error says the CLI reads GITHUB_TOKEN.
func TestCLIRepoTokenFlagHint(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{}, "-repo", testRepo, "-repo-token", "ghp_x")
	if o.code != ExitUsage || !strings.Contains(o.stderr, "the CLI reads the token from the GITHUB_TOKEN environment variable") {
		t.Errorf("exit %d, want %d and a hint at GITHUB_TOKEN:\n%s", o.code, ExitUsage, o)
	}
}

// TestRunCancelledSaysItOnce: the PRs a cancelled run did not reach are
// one line of the log, not one each.
func TestRunCancelledSaysItOnce(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.AddSynthetic(200, 5)
	o := runCtx(w.cancelAtFirstWrite(t), t, w.env(t))
	if o.code != ExitCancelled {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitCancelled, o)
	}
	if n := strings.Count(o.stdout, "not reached"); n != 1 {
		t.Errorf("%d lines say a PR was not reached, want 1\n%s", n, o.stdout)
	}
	// "12 pull requests (11 to mark, 1 to close) left for the next run":
	// counted, and by what each was to get.
	if !regexp.MustCompile(`\d+ pull requests \(\d+ to (mark|close|un-stale)[^)]*\) left for the next run`).MatchString(o.stdout) {
		t.Errorf("the end of the run does not count what was left, by kind\n%s", o.stdout)
	}
}

// TestCLIOneDay: a PR inactive for one day is "inactive 1 day".
func TestCLIOneDay(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	n := w.fake.AddPR(fakegithub.Issue{Title: "Marked yesterday", User: alice, CreatedAt: daysAgo(200), UpdatedAt: daysAgo(150)})
	at := daysAgo(1.2)
	w.fake.Label(n, actionID, at, "stale")
	w.fake.Comment(n, actionID, at.Add(time.Second), fakegithub.StaleNoticeBody("stale", at, ""))
	o := runWith(t, w.terminalEnv(), "-repo", testRepo, "-debug-only")
	if !strings.Contains(o.stdout, fmt.Sprintf("#%d inactive 1 day,", n)) || strings.Contains(o.stdout+o.stderr, "inactive 1 days") {
		t.Errorf("want \"inactive 1 day\":\n%s", o)
	}
}

// TestAPIURLPasswordNeverShown: GITHUB_API_URL with credentials and a stray
// leading space is refused in every mode without showing the password.
func TestAPIURLPasswordNeverShown(t *testing.T) {
	t.Parallel()
	const secret = "SECRET" + "pw42"
	for _, url := range []string{" http://user:" + secret + "@ghe.example.com/api/v3", "\t'https://user:" + secret + "@ghe.example.com'"} {
		for name, args := range map[string][]string{
			"list-repositories": {"-list-repositories", "octo"},
			"sweep":             {"-repo", testRepo},
		} {
			for _, workflow := range []bool{false, true} {
				e := env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": url}
				if workflow {
					e["GITHUB_ACTIONS"] = "true"
				}
				o := runWith(t, e, args...)
				if o.code == ExitOK || strings.Contains(o.stdout+o.stderr, secret) {
					t.Errorf("%s (workflow %v, %q): exit %d, the password shows or the value is taken:\n%s", name, workflow, url, o.code, o)
				}
				if !strings.Contains(o.stdout+o.stderr, "***@ghe.example.com") {
					t.Errorf("%s (workflow %v, %q): the error does not name the value, redacted:\n%s", name, workflow, url, o)
				}
			}
		}
	}
}

// TestCloseAtOnceKeepsNoStaleLabel: with days-before-close: 0 a PR is
// marked and closed in one run, and the closed PR keeps no stale label,
// where actions/stale leaves it: a difference the migration guide's table
// (docs/migrating.md, Every difference) states.
func TestCloseAtOnceKeepsNoStaleLabel(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	e := w.env(t)
	e[inputVar("days-before-close")] = "0"
	if o := runWith(t, e); o.code != ExitOK {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	if is := w.fake.MustIssue(w.toMark); is.State != "closed" || is.HasLabel("stale") {
		t.Errorf("#%d: state %s, labels %v; want closed in the run that marked it, without the stale label", w.toMark, is.State, is.Labels)
	}
	row := regexp.MustCompile("(?m)^\\| `close-pr-label` \\| Added on close.*$").FindString(fileSection(t, migratingPath, "differences"))
	if strings.Count(row, "`days-before-close: 0`") != 2 {
		t.Errorf("the migration table's close-pr-label row does not say what each does with days-before-close: 0:\n%s", row)
	}
}

// rehearsal is the line every switch recipe (docs/migrating.md) starts its
// with: with, step one of the switch.
const rehearsal = "          debug-only: true # step one: a rehearsal that writes nothing. Delete this line to go live.\n"

// TestReadmeSwitchRehearsesFirst: every workflow of docs/migrating.md that
// switches from actions/stale to stalepr starts as a dry run, its first
// with: key debug-only: true.
func TestReadmeSwitchRehearsesFirst(t *testing.T) {
	t.Parallel()
	md := readMarkdown(t, migratingPath)
	for _, name := range []string{"flink", "migration"} {
		text, _, _ := section(t, migratingPath, md, name)
		docs := markdownWorkflows(migratingPath, []byte(text))
		if len(docs) == 0 {
			t.Fatalf("the %s recipe of %s has no workflow", name, migratingPath)
		}
		last := string(docs[len(docs)-1].src)
		if !strings.Contains(last, "- uses: "+actionRepo+"@") || !strings.Contains(last, "        with:\n"+rehearsal) {
			t.Errorf("the %s recipe's switched workflow does not start its with: with debug-only: true:\n%s", name, last)
		}
	}
}

// TestReadmeAdoptionGuide: the README answers "why was my PR marked or
// closed?" with log lines as the run writes them, docs/inputs.md, which its
// Inputs links to, gives every input an anchor of its own (as actions/stale's
// README does), and docs/migrating.md, which the README links to, documents
// the offline preview of a switch.
func TestReadmeAdoptionGuide(t *testing.T) {
	t.Parallel()
	md := readReadme(t)
	why := md[max(strings.Index(md, "\n### Why was my PR marked or closed?\n"), 0):]
	if !strings.HasPrefix(why, "\n### Why was my PR marked or closed?\n") {
		t.Fatal("no Troubleshooting entry \"Why was my PR marked or closed?\"")
	}
	why = why[:strings.Index(why[1:], "\n### ")+1]
	log := goldenRun(t, false, []string{"-sandbox", filepath.Join("testdata", "sandbox")})["log.txt"]
	shape := regexp.MustCompile(`#\d+ (marked stale: inactive \d+ days, closes \d{4}-\d\d-\d\d|closed: no activity by a person since the mark, inactive \d+ days) — "`)
	examples := shape.FindAllString(why, -1)
	if len(examples) != 2 || len(shape.FindAllString(log, -1)) == 0 {
		t.Errorf("the entry's log lines (%q) are not both in the shape the run writes", examples)
	}
	inputs := readMarkdown(t, inputsPath)
	for _, in := range config.Inputs {
		if !strings.Contains(inputs, config.Anchor(in.Name)+"`"+in.Name+"`") {
			t.Errorf("the input %s has no anchor of its own in %s", in.Name, inputsPath)
		}
	}
	if !strings.Contains(headingSection(t, readmePath, md, "## Inputs"), "]("+inputsPath+")") {
		t.Errorf("the README's Inputs does not link to %s, where every input is", inputsPath)
	}
	if !strings.Contains(md, "]("+migratingPath+"#preview-the-switch-offline)") {
		t.Errorf("the README does not link to the offline preview of a switch, %s#preview-the-switch-offline", migratingPath)
	}
	preview := readMarkdown(t, migratingPath)
	for _, s := range []string{"## Preview the switch offline", "-sandbox-synthetic 2000", "`created_days_ago`", "`marked_stale`", "inputs.json"} {
		if !strings.Contains(preview, s) {
			t.Errorf("%s does not document the offline preview: no %q", migratingPath, s)
		}
	}
}

// TestRunStopAndFirstRowAgree: a run the budget stops says how many PRs it
// left to mark, and the next 14 days' first row, what was already due,
// counts the same: the marks falling due later that day have the day's
// own row.
func TestRunStopAndFirstRowAgree(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	for i := range 12 {
		w.fake.AddPR(fakegithub.Issue{Title: "old", User: alice, CreatedAt: daysAgo(400), UpdatedAt: daysAgo(200 - float64(i))})
	}
	// Due a mark 3 hours after the run: today, but not yet due.
	w.fake.AddPR(fakegithub.Issue{Title: "due later today", User: alice, CreatedAt: daysAgo(400), UpdatedAt: daysAgo(90 - 3.0/24)})
	e := w.env(t)
	e[inputVar("operations-per-run")] = "12"
	o := runWith(t, e)
	m := regexp.MustCompile(`(\d+) pull requests? that needs? work \((\d+) to mark\)`).FindStringSubmatch(o.summaryFile)
	if m == nil {
		t.Fatalf("the run did not stop with PRs left to mark:\n%s", o.summaryFile)
	}
	if want := "| due now | — | " + m[2] + ": "; !strings.Contains(o.summaryFile, want) {
		t.Errorf("the stop says %s left to mark; the next 14 days lack %q:\n%s", m[2], want, o.summaryFile)
	}
	if !strings.Contains(o.summaryFile, "| 2026‑11‑29 | — | 1: ") {
		t.Errorf("the mark due later on the run's day is not on that day's row:\n%s", o.summaryFile)
	}
}
