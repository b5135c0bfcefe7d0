package main

// End-to-end tests of run: the whole program, driven as the Actions runner
// drives the Docker action (INPUT_* variables, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files), against the fake GitHub in internal/fakegithub,
// reached in process (serve). Nothing here reads the real environment or the
// network.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/testenv"
)

const (
	testToken = "ghs_" + tokenSecret
	// tokenSecret is the token without its prefix, so that a copy escaped
	// for markdown (ghs&#95;...) or JSON (ghs\u005f...) is found too.
	tokenSecret = "Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF"
	testRepo    = "octo/repo"
)

var (
	t0       = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	alice    = fakegithub.Person("alice")
	bob      = fakegithub.Person("bob")
	ciBot    = fakegithub.Bot("ci-helper[bot]")
	actionID = fakegithub.Bot("github-actions[bot]")
)

func daysAgo(d float64) time.Time { return t0.Add(-time.Duration(d * float64(24*time.Hour))) }

// clientClock is the client's clock: it starts at t0 and Sleep only moves it,
// so waits between writes and retries cost no real time. It is not the fake's
// clock, which stays at t0.
func clientClock() *fakegithub.Clock { return fakegithub.NewClock(t0) }

// env is a fake process environment for run's lookup.
type env map[string]string

func (e env) lookup(k string) (string, bool) { v, ok := e[k]; return v, ok }

// environ lists e as os.Environ does.
func (e env) environ() []string {
	out := make([]string, 0, len(e))
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

// runnerEnv is the environment the Actions runner gives a Docker action that
// a workflow uses without any with: keys: every input of action.yml as
// INPUT_<NAME> (upper-cased, hyphens kept) holding its default, with the
// default expressions evaluated; the file commands point into dir.
func runnerEnv(dir, apiURL string) env {
	e := env{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_API_URL":      apiURL,
		"GITHUB_REPOSITORY":   testRepo,
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
	}
	for _, in := range config.Inputs {
		v := in.YAMLDefault()
		switch v {
		case "${{ github.token }}":
			v = testToken
		case "${{ github.repository }}":
			v = testRepo
		}
		e[inputVar(in.Name)] = v
	}
	return e
}

// inputVar is the variable the runner sets for an input.
func inputVar(name string) string { return "INPUT_" + strings.ToUpper(name) }

// outcome is what one run left behind.
type outcome struct {
	code                    int
	stdout, stderr          string
	outputFile, summaryFile string
}

func (o outcome) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s--- GITHUB_OUTPUT\n%s--- GITHUB_STEP_SUMMARY\n%s",
		o.code, o.stdout, o.stderr, o.outputFile, o.summaryFile)
}

// runWith runs the program once with e as its environment and args as its
// arguments; the file commands' files are created empty first, as the runner
// does.
func runWith(t *testing.T, e env, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return runCtx(ctx, t, e, args...)
}

// runCtx is runWith with the run's context given.
func runCtx(ctx context.Context, t *testing.T, e env, args ...string) outcome {
	t.Helper()
	return runClock(ctx, t, e, clientClock(), args...)
}

// runClock is runCtx with the client's clock given.
func runClock(ctx context.Context, t *testing.T, e env, clock *fakegithub.Clock, args ...string) outcome {
	t.Helper()
	for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		if p := e[k]; p != "" {
			if err := os.WriteFile(p, nil, 0o644); err != nil && !errors.Is(err, syscall.ENOTDIR) {
				t.Fatal(err)
			}
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, e.lookup, e.environ, &stdout, &stderr, clock)
	o := outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	read := func(k string) string {
		if e[k] == "" {
			return ""
		}
		b, err := os.ReadFile(e[k])
		if errors.Is(err, syscall.ENOTDIR) {
			return "" // a path made unwritable on purpose
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	o.outputFile, o.summaryFile = read("GITHUB_OUTPUT"), read("GITHUB_STEP_SUMMARY")
	return o
}

// world is a fake repository served over HTTP, with the PRs of the standard
// scenario: one to mark, one to close, one to un-stale, one active.
type world struct {
	fake *fakegithub.Server
	url  string // the fake's base URL (serve)
	// PR numbers
	toMark, toClose, toUnstale, active, flaky int
}

// newWorld builds the standard scenario; with flaky, it also has a stale PR
// whose history is longer than a listing page carries, and every read of
// its older history fails (the hits counter counts them).
func newWorld(t *testing.T, flaky bool) (*world, *atomic.Int32) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: testToken,
		Clock: fakegithub.NewClock(t0)})
	w := &world{fake: fake, url: serve(t, fake)}

	pr := func(title string, inactive float64) int {
		return fake.AddPR(fakegithub.Issue{Title: title, User: alice,
			CreatedAt: daysAgo(inactive + 10), UpdatedAt: daysAgo(inactive)})
	}
	marked := func(title string, markedDaysAgo float64) int {
		n := pr(title, markedDaysAgo+90)
		at := daysAgo(markedDaysAgo)
		fake.Label(n, actionID, at, "stale")
		fake.Comment(n, actionID, at.Add(time.Second), fakegithub.StaleNoticeBody("stale", at, ""))
		return n
	}
	w.toMark = pr(`Add <b>snake_case</b> "names" & more`, 100)
	w.toClose = marked("Old refactoring", 40)
	w.toUnstale = marked("Handle nil widgets", 10)
	fake.Comment(w.toUnstale, bob, daysAgo(2), "still on it")
	w.active = pr("Fresh work", 3)

	hits := &atomic.Int32{}
	if flaky {
		w.flaky = marked("Flaky timeline", 40)
		// A history longer than the listing's page carries (100 events):
		// its older part is a read of its own, and every such read fails.
		for i := range 105 {
			fake.Comment(w.flaky, ciBot, daysAgo(200-float64(i)), "coverage report")
		}
		fake.Comment(w.flaky, ciBot, daysAgo(5), "coverage 80%")
		history := fmt.Sprintf(`"number":%d`, w.flaky)
		fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
			if info.Route == "POST /graphql" && strings.Contains(info.Body, "pullRequest(number:") && strings.Contains(info.Body, history) {
				hits.Add(1)
				return fakegithub.ServerError(500)
			}
			return nil
		})
	}
	return w, hits
}

func (w *world) env(t *testing.T) env { return runnerEnv(t.TempDir(), w.url+"/api/v3") }

func (w *world) hasLabel(n int, label string) bool { return w.fake.MustIssue(n).HasLabel(label) }

// cancelAtFirstWrite is a run's context, cancelled (as by SIGTERM) when the
// fake takes the run's first write.
func (w *world) cancelAtFirstWrite(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if info.Write {
			cancel()
		}
		return nil
	})
	return ctx
}

func TestRunBadInputsAllAtOnceBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	bad := []struct {
		input string
		set   func(e env)
	}{
		{"days-before-stale", func(e env) { e[inputVar("days-before-stale")] = "ninety" }},
		{"exempt-draft-pr", func(e env) { e[inputVar("exempt-draft-pr")] = "yes" }},
		{"start-date", func(e env) { e[inputVar("start-date")] = "last tuesday" }},
		{"reviewers", func(e env) { e[inputVar("reviewers")] = "@docs-lead" }},
		{"stale-pr-message", func(e env) { e[inputVar("stale-pr-message")] = "Hello {{user}}, this is stale." }},
		{"repo-token", func(e env) { e[inputVar("repo-token")] = "" }}, // no GITHUB_TOKEN either
		{"repository", func(e env) { e[inputVar("repository")] = ""; delete(e, "GITHUB_REPOSITORY") }},
	}
	check := func(t *testing.T, w *world, o outcome, inputs []string) {
		t.Helper()
		if o.code != 2 {
			t.Errorf("exit code %d, want 2", o.code)
		}
		errs := testenv.ErrorLines(o.stdout)
		if len(errs) != len(inputs) {
			t.Errorf("%d ::error:: annotations, want %d (one per bad input):\n%s", len(errs), len(inputs), strings.Join(errs, "\n"))
		}
		for _, name := range inputs {
			found := false
			for _, l := range errs {
				found = found || strings.Contains(l, `"`+name+`"`)
			}
			if !found {
				t.Errorf("no ::error:: annotation names input %q:\n%s", name, o)
			}
		}
		if n := w.fake.Count(); n != 0 {
			t.Errorf("%d requests reached GitHub, want none: %v", n, w.fake.CountBy())
		}
		if o.outputFile != "" || o.summaryFile != "" {
			t.Errorf("outputs or summary written for a configuration error:\n%s", o)
		}
		if strings.Contains(o.stdout+o.stderr, tokenSecret) {
			t.Errorf("the token shows in the log of a configuration error:\n%s", o)
		}
	}

	t.Run("all at once", func(t *testing.T) {
		w, _ := newWorld(t, false)
		e := w.env(t)
		var names []string
		for _, b := range bad {
			b.set(e)
			names = append(names, b.input)
		}
		o := runWith(t, e)
		check(t, w, o, names)
	})
	for _, b := range bad {
		t.Run(b.input, func(t *testing.T) {
			w, _ := newWorld(t, false)
			e := w.env(t)
			b.set(e)
			check(t, w, runWith(t, e), []string{b.input})
		})
	}
}

// TestRunTokenNeverLeaks: the token shows only in the one ::add-mask:: line
// the runner needs, in a run that marks, closes, un-stales and fails a PR.
func TestRunTokenNeverLeaks(t *testing.T) {
	t.Parallel()
	w, hits := newWorld(t, true)
	o := runWith(t, w.env(t))
	if o.code != 1 || hits.Load() == 0 {
		t.Fatalf("want a run with a failed PR (exit 1, timeline fault hit): %d hits\n%s", hits.Load(), o)
	}
	mask := "::add-mask::" + testToken
	lines := strings.Split(o.stdout, "\n")
	if i := slices.Index(lines, mask); i < 0 || slices.Index(lines[i+1:], mask) >= 0 {
		t.Fatalf("want exactly one line %q in stdout:\n%s", mask, o.stdout)
	}
	rest := slices.DeleteFunc(lines, func(l string) bool { return l == mask })
	for name, text := range map[string]string{
		"stdout":              strings.Join(rest, "\n"),
		"stderr":              o.stderr,
		"GITHUB_OUTPUT":       o.outputFile,
		"GITHUB_STEP_SUMMARY": o.summaryFile,
	} {
		if strings.Contains(text, tokenSecret) {
			t.Errorf("the token shows in %s:\n%s", name, text)
		}
	}
	// The run must have produced error texts for the check to mean anything.
	if !strings.Contains(o.summaryFile, "Flaky timeline") || !strings.Contains(o.summaryFile, "500 Internal Server Error") {
		t.Errorf("the failure of #%d and its error are not in the summary:\n%s", w.flaky, o.summaryFile)
	}
}

// outputPR is one element of an output's JSON array.
type outputPR struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// parseOutputFile reads a GITHUB_OUTPUT file written in the runner's heredoc
// format: name<<DELIM, one value line, DELIM, each with its own delimiter.
func parseOutputFile(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] != "" {
		t.Fatalf("GITHUB_OUTPUT does not end with a line break:\n%s", text)
	}
	lines = lines[:len(lines)-1]
	delims := map[string]bool{}
	for i := 0; i < len(lines); i += 3 {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok || name == "" || len(delim) < 20 || i+2 >= len(lines) || lines[i+2] != delim {
			t.Fatalf("GITHUB_OUTPUT line %d: want name<<DELIM (a long random delimiter), a single value line, DELIM:\n%s", i+1, text)
		}
		if delims[delim] {
			t.Errorf("GITHUB_OUTPUT: delimiter %s used twice", delim)
		}
		delims[delim] = true
		if _, dup := out[name]; dup {
			t.Errorf("output %s set twice", name)
		}
		out[name] = lines[i+1]
	}
	return out
}

// decodeOutput checks that value is a JSON array of exactly
// {number,title,url} objects and returns it.
func decodeOutput(t *testing.T, name, value string) []outputPR {
	t.Helper()
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(value), &raw); err != nil {
		t.Fatalf("output %s is not a JSON array of objects: %v\n%s", name, err, value)
	}
	for _, obj := range raw {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"number", "title", "url"}) {
			t.Errorf("output %s: element with keys %v, want number, title, url", name, keys)
		}
	}
	var prs []outputPR
	dec := json.NewDecoder(strings.NewReader(value))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&prs); err != nil {
		t.Fatalf("output %s: %v", name, err)
	}
	return prs
}

func TestRunOutputs(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.env(t))
	if o.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", o.code, o)
	}
	outputs := parseOutputFile(t, o.outputFile)
	want := map[string]int{
		report.OutputStaled:   w.toMark,
		report.OutputClosed:   w.toClose,
		report.OutputUnstaled: w.toUnstale,
	}
	if len(outputs) != len(want)+1 || outputs[report.OutputWrongly] != "[]" {
		t.Errorf("outputs %v, want exactly %v and an empty %s", outputs, want, report.OutputWrongly)
	}
	for name, n := range want {
		value, ok := outputs[name]
		if !ok {
			t.Errorf("output %s not set", name)
			continue
		}
		prs := decodeOutput(t, name, value)
		if len(prs) != 1 || prs[0].Number != n {
			t.Errorf("output %s = %s, want just #%d", name, value, n)
			continue
		}
		is := w.fake.MustIssue(n)
		wantURL := fmt.Sprintf("%s/octo/repo/pull/%d", w.url, n)
		if prs[0].Title != is.Title || prs[0].URL != wantURL {
			t.Errorf("output %s = %+v, want title %q and url %s", name, prs[0], is.Title, wantURL)
		}
	}
}

func TestRunCleanRunExitsZero(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.env(t))
	if o.code != 0 || len(testenv.ErrorLines(o.stdout)) != 0 {
		t.Fatalf("exit %d, want 0 and no ::error::\n%s", o.code, o)
	}
	if !w.hasLabel(w.toMark, "stale") || w.fake.MustIssue(w.toClose).State != "closed" || w.hasLabel(w.toUnstale, "stale") {
		t.Errorf("run did not mark #%d, close #%d and un-stale #%d\n%s", w.toMark, w.toClose, w.toUnstale, o)
	}
	if w.hasLabel(w.active, "stale") || len(w.fake.Comments(w.active)) != 0 {
		t.Errorf("active #%d was touched", w.active)
	}
}

// TestRunFailedPRExitsOneAfterTheRest: one PR whose timeline cannot be read
// fails the run, but only after every other PR was handled; it is left as
// it was.
func TestRunFailedPRExitsOneAfterTheRest(t *testing.T) {
	t.Parallel()
	w, hits := newWorld(t, true)
	commentsBefore := len(w.fake.Comments(w.flaky))
	o := runWith(t, w.env(t))
	if o.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", o.code, o)
	}
	if hits.Load() == 0 {
		t.Fatal("the timeline of the flaky PR was never read: the scenario does not test a failure")
	}
	if !w.hasLabel(w.toMark, "stale") || w.fake.MustIssue(w.toClose).State != "closed" || w.hasLabel(w.toUnstale, "stale") {
		t.Errorf("the other PRs were not all processed: mark #%d, close #%d, un-stale #%d\n%s", w.toMark, w.toClose, w.toUnstale, o)
	}
	if is := w.fake.MustIssue(w.flaky); is.State != "open" || !is.HasLabel("stale") || len(w.fake.Comments(w.flaky)) != commentsBefore {
		t.Errorf("failed #%d was touched: state %s, labels %v", w.flaky, is.State, is.Labels)
	}
	errs := testenv.ErrorLines(o.stdout)
	if len(errs) != 1 || !strings.Contains(errs[0], "1 pull request could not be processed") {
		t.Errorf("::error:: annotations %q, want one saying 1 pull request failed", errs)
	}
	if !strings.Contains(o.stdout, "failed 1") {
		t.Errorf("log's counts lack \"failed 1\":\n%s", o.stdout)
	}
	if !strings.Contains(o.summaryFile, fmt.Sprintf("#%d](", w.flaky)) {
		t.Errorf("summary does not list failed #%d:\n%s", w.flaky, o.summaryFile)
	}
	// The ::error:: annotation sends readers to the log, which names the PR
	// and the error.
	if line := fmt.Sprintf("#%d failed: ", w.flaky); !strings.Contains(o.stdout, line) {
		t.Errorf("the log has no line %q for the failed PR:\n%s", line, o.stdout)
	}
}

func TestRunDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	e := w.env(t)
	e[inputVar("debug-only")] = "true"
	o := runWith(t, e)
	if o.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", o.code, o)
	}
	if n := w.fake.Writes(); n != 0 {
		t.Errorf("%d write requests in a dry run: %v", n, w.fake.WriteRequests())
	}
	if w.fake.Count() == 0 {
		t.Error("no request at all: the dry run did not read the repository")
	}
	// It still says what it would do.
	outputs := parseOutputFile(t, o.outputFile)
	if prs := decodeOutput(t, report.OutputStaled, outputs[report.OutputStaled]); len(prs) != 1 || prs[0].Number != w.toMark {
		t.Errorf("dry run output %s = %s, want #%d", report.OutputStaled, outputs[report.OutputStaled], w.toMark)
	}
	if !strings.Contains(o.stdout, "would mark stale") {
		t.Errorf("dry run log does not say what it would do:\n%s", o.stdout)
	}
}

// TestRunDryRunSaysItsRateLimitCountsTheWrites: a dry run counts the writes
// it refused against the rate limit left, so it stops where the real run
// would; its summary and its log say the figure counts them, and how many:
// here, as many as the writes the real run sends.
func TestRunDryRunSaysItsRateLimitCountsTheWrites(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	e := w.env(t)
	e[inputVar("debug-only")] = "true"
	o := runWith(t, e)
	re := regexp.MustCompile(`Rate limit: \d+ of \d+ left, counting the (\d+) requests a real run would send that this dry run did not`)
	m := re.FindStringSubmatch(o.summaryFile)
	if m == nil || !strings.Contains(o.stdout, "left, counting the "+m[1]+" requests a real run would send") {
		t.Fatalf("the dry run's rate limit does not say it counts the writes it did not send:\n%s\n%s", o.summaryFile, o.stdout)
	}
	real, _ := newWorld(t, false)
	o = runWith(t, real.env(t))
	if o.code != ExitOK || fmt.Sprint(real.fake.Writes()) != m[1] {
		t.Errorf("the dry run counts %s writes; the real run sent %d (exit %d)", m[1], real.fake.Writes(), o.code)
	}
}

// TestRunEnterpriseAPIPath: with GITHUB_API_URL of an Enterprise Server, every
// REST request goes below /api/v3/, and GraphQL (who the token is) to
// /api/graphql beside it, where Enterprise Server serves it.
func TestRunEnterpriseAPIPath(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.env(t))
	if o.code != 0 {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	reqs := w.fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("no requests")
	}
	for _, r := range reqs {
		if !strings.HasPrefix(r.Path, "/api/v3/") && r.Path != "/api/graphql" {
			t.Errorf("request %s %s is not below /api/v3/", r.Method, r.Path)
		}
	}
}

func TestRunVersion(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{}, "-version")
	if o.code != 0 || strings.TrimSpace(o.stdout) != "stalepr "+version {
		t.Errorf("-version: exit %d, stdout %q; want 0 and %q", o.code, o.stdout, "stalepr "+version)
	}
}

func TestRunHelpListsEveryInput(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{"GITHUB_ACTIONS": "true"}, "-help")
	if o.code != ExitOK || o.stderr != "" {
		t.Fatalf("-help: want exit 0 and the text on stdout only\n%s", o)
	}
	help := o.stdout
	for _, want := range []string{"  -sandbox DIR\n", "  -summary FORMAT (default \"text\")\n", "  -version\n", "Exit codes:\n"} {
		if !strings.Contains(help, want) {
			t.Errorf("-help lacks %q", want)
		}
	}
	for _, code := range []int{ExitOK, ExitFailed, ExitUsage, ExitCancelled} {
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^  %d +\S`, code)).MatchString(help) {
			t.Errorf("-help does not explain exit code %d", code)
		}
	}
	listed := map[string]bool{}
	for _, l := range strings.Split(help, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") {
			listed[strings.TrimPrefix(f[0], "-")] = true
		}
	}
	for _, in := range config.Inputs {
		if !listed[in.Name] {
			t.Errorf("-help does not list input %s", in.Name)
		}
	}
}

// TestRunSandbox runs the offline sandbox as the README shows it.
func TestRunSandbox(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{}, "-sandbox", filepath.Join("testdata", "sandbox"))
	if o.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", o.code, o)
	}
	for _, re := range []string{
		`(?m)^#\d+ marked stale: `,
		`(?m)^#\d+ closed: `,
		`(?m)^#\d+ un-staled: `,
		`(?m)^marked stale [1-9]\d*, un-staled [1-9]\d*, closed [1-9]\d*, .*failed 0`,
		`(?m)^Acted on:$`,
		`(?m)^API usage: \d+ requests`,
	} {
		if !regexp.MustCompile(re).MatchString(o.stdout + o.stderr) {
			t.Errorf("sandbox output does not match %s:\n%s", re, o)
		}
	}
}

// sandboxWorkflow serves the sandbox's sample (testdata/sandbox) from a
// fake GitHub and returns it with the environment of a workflow run on it
// with the sample's inputs.
func sandboxWorkflow(t *testing.T) (*fakegithub.Server, map[string]string) {
	t.Helper()
	dir := filepath.Join("testdata", "sandbox")
	fake, err := fakegithub.LoadFile(filepath.Join(dir, "repo.json"), t0)
	if err != nil {
		t.Fatal(err)
	}
	fake.SetToken(testToken)
	base := serve(t, fake)
	inputs := map[string]string{}
	data, err := os.ReadFile(filepath.Join(dir, "inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &inputs); err != nil {
		t.Fatal(err)
	}
	e := runnerEnv(t.TempDir(), base+"/api/v3")
	e["GITHUB_REPOSITORY"] = fake.FullName()
	e[inputVar("repository")] = fake.FullName()
	for k, v := range inputs {
		e[inputVar(k)] = v
	}
	return fake, e
}

// TestSandboxSecondRunWritesNothing: on the state a sandbox run leaves
// behind, another run at the same time has nothing to do.
func TestSandboxSecondRunWritesNothing(t *testing.T) {
	t.Parallel()
	fake, e := sandboxWorkflow(t)
	first := runWith(t, e)
	if first.code != 0 || fake.Writes() == 0 {
		t.Fatalf("first run: exit %d, %d writes; want 0 and some writes\n%s", first.code, fake.Writes(), first)
	}
	fake.Reset()
	second := runWith(t, e)
	if second.code != 0 {
		t.Fatalf("second run: exit %d\n%s", second.code, second)
	}
	if n := fake.Writes(); n != 0 {
		t.Errorf("second run sent %d writes, want none: %v", n, fake.WriteRequests())
	}
	outputs := parseOutputFile(t, second.outputFile)
	for name, v := range outputs {
		if v != "[]" {
			t.Errorf("second run: output %s = %s, want []", name, v)
		}
	}
}

// terminalEnv is a person's shell pointed at the fake GitHub: no
// GITHUB_ACTIONS, no file commands, the token in GITHUB_TOKEN.
func (w *world) terminalEnv() env {
	return env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": w.url + "/api/v3"}
}

// workflowCommands are the commands a terminal must never see.
var workflowCommands = []string{"::add-mask::", "::group::", "::endgroup::", "::stop-commands::", "::error", "::warning", "::notice", "::debug::"}

// checkTerminal fails when text holds the token or a workflow command.
func checkTerminal(t *testing.T, o outcome) {
	t.Helper()
	text := o.stdout + o.stderr
	if strings.Contains(text, tokenSecret) {
		t.Errorf("the token shows in the terminal:\n%s", o)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			t.Errorf("workflow command in the terminal: %q", l)
		}
		for _, c := range workflowCommands {
			if strings.Contains(l, c) {
				t.Errorf("workflow command %s in the terminal: %q", c, l)
			}
		}
	}
}

// TestRunTerminal: the CLI outside Actions, with a real-looking token, in a
// run that marks, closes, un-stales and fails a PR: no token, no workflow
// command, the log and errors ("stalepr: ..." lines) on stderr, a
// plain-text summary alone on stdout.
func TestRunTerminal(t *testing.T) {
	t.Parallel()
	w, hits := newWorld(t, true)
	o := runWith(t, w.terminalEnv(), "-repo", testRepo)
	if o.code != ExitFailed || hits.Load() == 0 {
		t.Fatalf("want a run with a failed PR (exit 1, timeline fault hit): %d hits\n%s", hits.Load(), o)
	}
	checkTerminal(t, o)
	if !w.hasLabel(w.toMark, "stale") || w.fake.MustIssue(w.toClose).State != "closed" {
		t.Errorf("the run did not do its work:\n%s", o)
	}
	if !strings.Contains(o.stderr, fmt.Sprintf("stalepr: 1 pull request could not be processed and was left untouched (the log and the summary list them); the first, #%d: read the history of #%d: GitHub answered 500", w.flaky, w.flaky)) {
		t.Errorf("the failure is not on stderr:\n%s", o)
	}
	if !strings.HasPrefix(o.stdout, "stalepr: octo/repo\n") {
		t.Errorf("stdout does not start with the summary:\n%s", o.stdout)
	}
	for _, want := range []string{fmt.Sprintf("#%d failed: ", w.flaky), "; rate limit "} {
		if !strings.Contains(o.stderr, want) || strings.Contains(o.stdout, want) {
			t.Errorf("%q is not in the log on stderr alone:\n%s", want, o)
		}
	}
	for _, want := range []string{"Acted on:\n", "Failed (1)", "API usage: "} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, o.stdout)
		}
	}
	if strings.Contains(o.stdout, "| --- |") {
		t.Errorf("the default summary is markdown, want plain text:\n%s", o.stdout)
	}
}

func TestRunTerminalMarkdownSummary(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.terminalEnv(), "-repo", testRepo, "-debug-only", "-summary=markdown")
	if o.code != ExitOK {
		t.Fatalf("exit %d\n%s", o.code, o)
	}
	checkTerminal(t, o)
	if !strings.Contains(o.stdout, "## stalepr: octo/repo\n") || !strings.Contains(o.stdout, "| Outcome | Pull requests |") {
		t.Errorf("-summary=markdown does not print the markdown summary:\n%s", o.stdout)
	}
}

// TestRunTerminalMistakes: bad flags and inputs in a terminal are plain
// "stalepr: ..." lines on stderr, exit 2, no request, no token.
func TestRunTerminalMistakes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-repo", testRepo, "-days-before-stale", "ninety"},
		{"-repo", testRepo, "-no-such-input", "1"},
		{"-repo", testRepo, "-summary", "html"},
		{"-repo", testRepo, "-sandbox", filepath.Join("testdata", "no-such-dir")},
		{"-repo", testRepo, "extra"},
	} {
		t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
			w, _ := newWorld(t, false)
			o := runWith(t, w.terminalEnv(), args...)
			if o.code != ExitUsage {
				t.Errorf("exit %d, want %d", o.code, ExitUsage)
			}
			checkTerminal(t, o)
			if o.stdout != "" || !strings.HasPrefix(o.stderr, "stalepr: ") || strings.Count(o.stderr, "\n") != 1 {
				t.Errorf("want one \"stalepr: ...\" line on stderr and nothing on stdout:\n%s", o)
			}
			if n := w.fake.Count(); n != 0 {
				t.Errorf("%d requests reached GitHub, want none", n)
			}
		})
	}
}

// TestRunFlagValueIsNotAFlag: one FlagSet parses everything, so "-version"
// after -stale-pr-label is the label, not a request for the version.
func TestRunFlagValueIsNotAFlag(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.terminalEnv(), "-repo", testRepo, "-debug-only", "-stale-pr-label", "-version")
	if o.code != ExitOK || strings.Contains(o.stdout, "stalepr "+version+"\n") || w.fake.Count() == 0 {
		t.Fatalf("want a dry run, not the version:\n%s", o)
	}
	for _, r := range w.fake.Requests() {
		if strings.Contains(r.Path, "labels=-version") {
			return
		}
	}
	t.Errorf("no listing asked for the label -version: %v", w.fake.CountBy())
}

// TestRunUnwritableFiles: GITHUB_OUTPUT or GITHUB_STEP_SUMMARY cannot be
// written (its parent is a regular file, which stops root too). The run does
// its work, logs it, writes what it can, and fails with an ::error:: naming
// the file; no panic.
func TestRunUnwritableFiles(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		t.Run(name, func(t *testing.T) {
			w, _ := newWorld(t, false)
			e := w.env(t)
			parent := filepath.Join(t.TempDir(), "a-file")
			if err := os.WriteFile(parent, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			bad := filepath.Join(parent, "out")
			e[name] = bad
			o := runWith(t, e)
			if o.code != ExitFailed {
				t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
			}
			if !w.hasLabel(w.toMark, "stale") || w.fake.MustIssue(w.toClose).State != "closed" {
				t.Errorf("the sweep did not do its work:\n%s", o)
			}
			errs := testenv.ErrorLines(o.stdout)
			if len(errs) != 1 || !strings.Contains(errs[0], name) || !strings.Contains(errs[0], bad) {
				t.Fatalf("want one ::error:: naming %s and %s, got %q", name, bad, errs)
			}
			counts := strings.Index(o.stdout, "marked stale 1, un-staled 1, closed 1")
			if counts < 0 || counts > strings.Index(o.stdout, errs[0]) || !strings.Contains(o.stdout[:counts], fmt.Sprintf("#%d marked stale", w.toMark)) {
				t.Errorf("the log does not report the work before the error:\n%s", o.stdout)
			}
			// The other file is still written.
			if name == "GITHUB_OUTPUT" && !strings.Contains(o.summaryFile, "Marked stale") {
				t.Errorf("summary not written:\n%s", o)
			}
			if name == "GITHUB_STEP_SUMMARY" && len(parseOutputFile(t, o.outputFile)) != 4 {
				t.Errorf("outputs not written:\n%s", o)
			}
		})
	}
}

// TestRunOutputsCapped: a dry run that would mark thousands of PRs with long
// titles keeps each output under the cap, as whole items, and the summary
// says so.
func TestRunOutputsCapped(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	w, _ := newWorld(t, false)
	// Titles as long as GitHub allows (256 characters): 500 PRs are over
	// twice what an output holds.
	const n = 500
	for i := range n {
		w.fake.AddPR(fakegithub.Issue{Title: fmt.Sprintf("%04d %s", i, strings.Repeat("long title ", 22)), User: alice,
			CreatedAt: daysAgo(300), UpdatedAt: daysAgo(200)})
	}
	e := w.env(t)
	e[inputVar("debug-only")] = "true"
	e[inputVar("operations-per-run")] = "100000"
	o := runWith(t, e)
	if o.code != ExitOK {
		t.Fatalf("exit %d\n%s", o.code, o.stderr)
	}
	if !strings.Contains(o.summaryFile, fmt.Sprintf("| Would mark stale | %d |", n+1)) {
		t.Fatalf("the run would not mark all %d PRs:\n%s", n+1, o.summaryFile[:min(len(o.summaryFile), 2000)])
	}
	v := parseOutputFile(t, o.outputFile)[report.OutputStaled]
	if len(v) > report.MaxOutputBytes {
		t.Errorf("%s is %d bytes, over %d", report.OutputStaled, len(v), report.MaxOutputBytes)
	}
	prs := decodeOutput(t, report.OutputStaled, v)
	if len(prs) == 0 || len(prs) > n {
		t.Fatalf("%s lists %d PRs, want a cut list", report.OutputStaled, len(prs))
	}
	t.Logf("%s: %d of %d PRs in %d bytes", report.OutputStaled, len(prs), n+1, len(v))
	if want := fmt.Sprintf("%s lists the first %d of %d pull requests", report.OutputStaled, len(prs), n+1); !strings.Contains(o.summaryFile, want) {
		t.Errorf("the summary does not say %q:\n%s", want, o.summaryFile[len(o.summaryFile)-400:])
	}
}

// TestRunListingFailsAfterChanges: the clean-up listing of closed PRs runs
// after the writes; when it fails, the run does not claim nothing was
// changed, and does not say it stopped early with PRs left.
func TestRunListingFailsAfterChanges(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if strings.Contains(info.Path, "state=closed") {
			return fakegithub.StatusFault(422, `{"message":"Validation Failed"}`)
		}
		return nil
	})
	o := runWith(t, w.env(t))
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	errs := testenv.ErrorLines(o.stdout)
	if len(errs) != 1 || !strings.Contains(errs[0], "3 pull requests were changed before it") {
		t.Errorf("want one ::error:: saying 3 PRs were changed, got %q", errs)
	}
	for _, text := range []string{o.stdout, o.summaryFile} {
		for _, lie := range []string{"nothing was changed", "Nothing was changed", "stopped early", "left for the next run"} {
			if strings.Contains(text, lie) {
				t.Errorf("says %q after changing 3 PRs:\n%s", lie, text)
			}
		}
	}
}

// TestRunCancelled: a run cancelled (SIGTERM) after its first write reports
// the PRs it did not reach as not reached, not as failures, and exits 130.
func TestRunCancelled(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runCtx(w.cancelAtFirstWrite(t), t, w.env(t))
	if o.code != ExitCancelled {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitCancelled, o)
	}
	if n := w.fake.Writes(); n != 1 {
		t.Errorf("%d writes reached GitHub, want only the one during which the run was cancelled: %v", n, w.fake.WriteRequests())
	}
	if strings.Contains(o.stdout, " failed: ") || strings.Contains(o.stdout, "could not be processed") || strings.Contains(o.summaryFile, "❌ Failed") {
		t.Errorf("PRs not reached are reported as failures:\n%s", o)
	}
	if !strings.Contains(o.stdout, "not reached: the run was cancelled") || !strings.Contains(o.summaryFile, "not reached") {
		t.Errorf("the log or the summary does not say which PRs were not reached:\n%s", o)
	}
	errs := testenv.ErrorLines(o.stdout)
	if len(errs) != 1 || !strings.Contains(errs[0], "cancelled") {
		t.Errorf("want one ::error:: saying the run was cancelled, got %q", errs)
	}
}

// TestRunBudgetTooSmallToAct: an operations-per-run below what one action
// needs is a configuration error before any request, naming the input and
// the minimum for the inputs given.
func TestRunBudgetTooSmallToAct(t *testing.T) {
	t.Parallel()
	for budget, min := range map[string]string{"1": "6", "5": "6"} {
		t.Run(budget, func(t *testing.T) {
			w, _ := newWorld(t, false)
			e := w.env(t)
			e[inputVar("operations-per-run")] = budget
			o := runWith(t, e)
			errs := testenv.ErrorLines(o.stdout)
			if o.code != ExitUsage || len(errs) != 1 || !strings.Contains(errs[0], `"operations-per-run"`) || !strings.Contains(errs[0], "want "+min+" or more") {
				t.Errorf("exit %d, errors %q: want exit %d and one error naming operations-per-run and %s", o.code, errs, ExitUsage, min)
			}
			if n := w.fake.Count(); n != 0 {
				t.Errorf("%d requests reached GitHub, want none", n)
			}
		})
	}
}

// TestRunSaysWhichBranchItDeleted: with delete-branch, the close that
// deletes a PR's branch says so in its log line and in its row of the
// acted-on table, with the branch's name.
func TestRunSaysWhichBranchItDeleted(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.AddBranch("old-work")
	n := w.fake.AddPR(fakegithub.Issue{Title: "Old work", User: alice, HeadRef: "old-work",
		CreatedAt: daysAgo(200), UpdatedAt: daysAgo(130)})
	at := daysAgo(40)
	w.fake.Label(n, actionID, at, "stale")
	w.fake.Comment(n, actionID, at.Add(time.Second), fakegithub.StaleNoticeBody("stale", at, ""))
	e := w.env(t)
	e[inputVar("delete-branch")] = "true"
	o := runWith(t, e)
	if o.code != ExitOK || w.fake.HasBranch("old-work") || w.fake.MustIssue(n).State != "closed" {
		t.Fatalf("exit %d; #%d %s, branch there %v: want it closed and its branch deleted:\n%s",
			o.code, n, w.fake.MustIssue(n).State, w.fake.HasBranch("old-work"), o)
	}
	if line := regexp.MustCompile(fmt.Sprintf(`(?m)^#%d closed: .*, branch "old-work" deleted — "Old work"$`, n)); !line.MatchString(o.stdout) {
		t.Errorf("the log does not say the branch was deleted:\n%s", o.stdout)
	}
	if row := "| Old work | closed, branch old-work deleted |"; !strings.Contains(o.summaryFile, row) {
		t.Errorf("the acted-on table lacks %q:\n%s", row, o.summaryFile)
	}
}
