package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/event"
	"github.com/stalepr/stalepr/internal/fleet"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/runner"
	"github.com/stalepr/stalepr/internal/sandbox"
	"github.com/stalepr/stalepr/internal/sweep"
)

// version is set at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

// Exit codes, the runner package's (listed by -help and in the README).
const (
	ExitOK        = runner.ExitOK
	ExitFailed    = runner.ExitFailed
	ExitUsage     = runner.ExitUsage
	ExitCancelled = runner.ExitCancelled
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.LookupEnv, os.Environ, os.Stdout, os.Stderr, realClock{})
	stop()
	os.Exit(code)
}

// cliFlags are the flags that are not inputs.
type cliFlags struct {
	sandbox string
	// synthetic: pull requests added to the sandbox's sample, a busy
	// repository's queue to preview a switch on.
	synthetic int
	// sandboxEvent: NAME=FILE, the event a sandbox run evaluates one
	// pull request after, and its payload.
	sandboxEvent string
	summary      string
	// summaryFile: a terminal's summary goes to this file, not stdout.
	summaryFile string
	version     bool
}

// newFlagSet holds every flag of the command line: config.FromFlags adds the
// inputs to the ones defined here, and one Parse reads them all.
func newFlagSet() (*flag.FlagSet, *cliFlags) {
	fs := flag.NewFlagSet("stalepr", flag.ContinueOnError)
	var f cliFlags
	fs.StringVar(&f.sandbox, "sandbox", "", "Run against the project's fake GitHub loaded with the sample in `DIR` "+
		"(DIR/repo.json, and DIR/inputs.json for inputs), offline, e.g. -sandbox testdata/sandbox.")
	fs.IntVar(&f.synthetic, "sandbox-synthetic", 0, "With -sandbox: add `N` generated pull requests to the sample "+
		"(a busy repository's mix of active, old, stale, draft and bot PRs, the same for the same N), "+
		"e.g. -sandbox testdata/sandbox -sandbox-synthetic 2000.")
	fs.StringVar(&f.sandboxEvent, "sandbox-event", "", "With -sandbox: run as a workflow run that an event started does, on the pull request "+
		"of the payload in `NAME=FILE` (NAME the event, FILE its webhook payload), after making in the sample the comment, review or push "+
		"it reports, e.g. -sandbox testdata/sandbox -sandbox-event issue_comment=testdata/sandbox/events/comment.json.")
	fs.StringVar(&f.summary, "summary", runner.Text, "How a terminal shows the summary: `FORMAT` is text or markdown. "+
		"In a workflow the job summary is always markdown.")
	fs.StringVar(&f.summaryFile, "summary-file", "", "Write a terminal's summary to `FILE` instead of stdout "+
		"(the log always goes to stderr).")
	fs.BoolVar(&f.version, "version", false, "Print the version and exit.")
	// Only for -help: the listing is a command of its own, run when it is
	// the first argument (listCommand).
	fs.Func("list-repositories", "The fleet's listing, a command of its own, written first: "+
		"stalepr -list-repositories `OWNER` [-repositories 'a,b*'] [-include-archived] [-include-forks] "+
		"prints the repositories a GitHub App installation token sees, as the fleet workflow's matrix. "+
		"stalepr -list-repositories -help shows its flags.", func(string) error {
		return errors.New("it is a command of its own: write it first, stalepr -list-repositories OWNER [flags]")
	})
	return fs, &f
}

// run is the whole program, so tests can run it with their own environment,
// output and clock. It returns the exit code. It has two commands: the
// fleet's listing, named by its first argument, and the sweep of one
// repository, whose inputs come from the flags, the runner's INPUT_*
// variables (with a fleet's layers over them) or a sandbox's sample;
// environ lists the environment, for the INPUT_* names that are no input.
func run(ctx context.Context, args []string, lookup func(string) (string, bool), environ func() []string, stdout, stderr io.Writer, clock ghapi.Clock) int {
	getenv := func(k string) string { v, _ := lookup(k); return v }
	if rest, ok := fleet.IsCommand(args); ok {
		list := fleet.Command{Getenv: getenv, Stdout: stdout, Stderr: stderr, Clock: clock, UserAgent: userAgent()}
		return list.Main(ctx, rest)
	}
	now := clock.Now().UTC()
	src, cli, out, code := readFlags(args, getenv, stdout, stderr)
	if out == nil {
		return code
	}
	origin := func(string) string { return "" }
	if runner.InWorkflow(getenv) && len(args) == 0 {
		var done bool
		if src, origin, code, done = workflowInputs(ctx, lookup, environ, out, clock); done {
			return code
		}
	}
	var extra string
	var sb *sandbox.Sandbox
	if cli.sandbox != "" {
		var err error
		sb, err = sandbox.Open(cli.sandbox, now, src, cli.synthetic)
		if err != nil {
			out.Fail("sandbox", err.Error())
			return ExitUsage
		}
		defer sb.Close()
		src, clock = sb.Src, sb.Clock
		out.Note(sb.Banner())
		extra = "\n" + sandbox.Note + "\n"
	}
	explain := explainOrigin(origin)
	if !runner.InWorkflow(getenv) && cli.sandbox == "" && strings.TrimSpace(getenv(config.EnvToken)) == "" {
		explain = tokenFromShell(explain)
	}
	cfg, ok := parseConfig(out, src, explain)
	if !ok {
		return ExitUsage
	}
	out.Mask(string(cfg.Token))

	ev, onePR, code, done := eventOf(getenv, out, cli.sandbox == "", cfg)
	if sb != nil && cli.sandboxEvent != "" {
		ev, onePR, code, done = sandboxEvent(sb, cli.sandboxEvent, out, cfg)
	}
	if done {
		return code
	}
	title := fmt.Sprintf("Sweeping the pull requests of %s", cfg.Repository())
	if onePR {
		cfg.OperationsPerRun = min(cfg.OperationsPerRun, sweep.EventRequests)
		title = fmt.Sprintf("Evaluating #%d of %s after its %s event", ev.Number, cfg.Repository(), ev.Name)
	}
	w, endLog := out.StartLog(title)
	log := &logger{w: w, dry: cfg.DebugOnly}
	// The transport says when it slows down, inside the run's log.
	// The deadline counts from the run's start: a fleet's file read is part
	// of the run.
	client, err := clientFor(cfg, clock, now, runner.InWorkflow(getenv), log.Printf)
	if err != nil {
		endLog()
		out.Fail("", err.Error())
		return ExitUsage
	}
	res := runSweep(ctx, sweep.New(client, cfg, now, log), cfg, ev, onePR)
	endLog()
	for _, w := range report.DashboardWarnings(res) {
		out.Warn(w)
	}
	out.Line(report.Counts(res))
	return finish(out, res, cfg.Repository(), extra)
}

// workflowInputs is the source of a workflow run given no arguments: the
// runner's INPUT_* variables, with a fleet's layers over them when the
// fleet workflow names its organisation (origin says which layer set an
// input). done, with the exit code, when the fleet's file cannot be used.
func workflowInputs(ctx context.Context, lookup func(string) (string, bool), environ func() []string, out runner.IO, clock ghapi.Clock) (src config.Source, origin func(string) string, code int, done bool) {
	src = config.ActionsSource(lookup)
	src.Given = func() []string { return config.GivenInEnv(environ()) }
	org, _ := lookup(fleet.InputsEnv)
	if org == "" {
		return src, func(string) string { return "" }, 0, false
	}
	// The file's read counts in the run's deadline; a fleet's sweep
	// runs only in a workflow.
	newClient := func(cfg config.Config) (*ghapi.Client, error) { return clientFor(cfg, clock, clock.Now(), true, nil) }
	return fleet.Inputs(ctx, out, src, org, newClient)
}

// explainOrigin names, in an input's message, the fleet's file or layer
// that set its value, so the fix goes where the value came from.
func explainOrigin(origin func(string) string) func(name, msg string) string {
	return func(name, msg string) string {
		if o := origin(name); o != "" {
			return msg + " (set in " + o + ")"
		}
		return msg
	}
}

// runSweep is the run: the PR of an event alone, or the whole sweep and
// then the dashboard issue.
func runSweep(ctx context.Context, run *sweep.Sweep, cfg config.Config, ev event.Event, onePR bool) sweep.Result {
	switch {
	case onePR && ev.Closed:
		return run.Command(ctx, ev.Number, ev.Sender) // a reopen command (event.Skip)
	case onePR && ev.MayBeReadOnly():
		return run.OneForkPR(ctx, ev.Number, ev.Sender, ev.Fork)
	case onePR:
		return run.OnePR(ctx, ev.Number, ev.Sender)
	}
	res := run.PRs(ctx)
	if cfg.DashboardIssue != "" {
		res = run.KeepDashboard(ctx, report.Dashboard(res))
	}
	return res
}

// eventOf reads the event of a workflow run on one pull request, before
// any request: onePR when the run is to evaluate that PR alone (sweep.OnePR);
// done, with the exit code, when the payload cannot be read (a usage
// error) or the event asks nothing of the repository the run acts on.
// A sandbox run, or one outside a workflow or on schedule or
// workflow_dispatch, sweeps; an event stalepr does not name does nothing.
func eventOf(getenv func(string) string, out runner.IO, mayBeEvent bool, cfg config.Config) (ev event.Event, onePR bool, code int, done bool) {
	name := getenv("GITHUB_EVENT_NAME")
	if !mayBeEvent || !runner.InWorkflow(getenv) || event.Sweeps(name) {
		return event.Event{}, false, 0, false
	}
	if why := event.Unknown(name); why != "" {
		out.Line(fmt.Sprintf("stalepr: %s event: %s; nothing to do", name, why))
		return event.Event{Name: name}, false, ExitOK, true
	}
	payload, err := readEvent(name, getenv("GITHUB_EVENT_PATH"))
	if err != nil {
		out.Fail("event", err.Error())
		return event.Event{Name: name}, false, ExitUsage, true
	}
	// Every webhook payload names its repository; a payload made by hand
	// may not, and the run's own repository is where its event happened.
	return evaluate(out, name, payload, getenv("GITHUB_REPOSITORY"), cfg)
}

// evaluate reads the payload of an event of this name, which happened in
// the repository where (unless the payload names another), for a run with
// cfg (the repository it acts on, whether it answers reopen commands):
// onePR, or done with the exit code, as eventOf says.
func evaluate(out runner.IO, name string, payload []byte, where string, cfg config.Config) (ev event.Event, onePR bool, code int, done bool) {
	ev, err := event.Parse(name, payload)
	if err != nil {
		out.Fail("event", err.Error())
		return ev, false, ExitUsage, true
	}
	if ev.Repository == "" {
		ev.Repository = where
	}
	why := ev.Skip(cfg.Repository(), cfg.AsksReopen)
	if why == "" {
		why = ev.ReadOnly()
	}
	if why != "" {
		out.Line(fmt.Sprintf("stalepr: %s event: %s; nothing to do", name, why))
		return ev, false, ExitOK, true
	}
	return ev, true, 0, false
}

// readEvent reads the payload of the run's event at path.
func readEvent(name, path string) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("a %s event run needs its payload, but GITHUB_EVENT_PATH is not set", name)
	}
	payload, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the %s event's payload: %w", name, err)
	}
	return payload, nil
}

// sandboxEvent is eventOf for a sandbox run's -sandbox-event NAME=FILE
// (checked by readFlags): the event as a workflow run on repo, the
// sample's repository, reads it; the comment, review or push it reports is
// made in the sample first (Sandbox.Happen), and said.
func sandboxEvent(sb *sandbox.Sandbox, flag string, out runner.IO, cfg config.Config) (ev event.Event, onePR bool, code int, done bool) {
	name, path, _ := strings.Cut(flag, "=")
	payload, err := readEvent(name, path)
	if err != nil {
		out.Fail("sandbox-event", err.Error())
		return event.Event{Name: name}, false, ExitUsage, true
	}
	if ev, onePR, code, done = evaluate(out, name, payload, cfg.Repository(), cfg); done {
		return ev, onePR, code, done
	}
	line, err := sb.Happen(ev, payload)
	if err != nil {
		out.Fail("sandbox-event", err.Error())
		return ev, false, ExitUsage, true
	}
	out.Note(line)
	return ev, true, 0, false
}

// sandboxEventFlag is what is wrong with -sandbox-event's value v, "" when
// nothing: NAME=FILE, NAME an event stalepr evaluates one pull request on.
func sandboxEventFlag(v string) string {
	name, path, ok := strings.Cut(v, "=")
	switch {
	case !ok || name == "" || path == "":
		return fmt.Sprintf("-sandbox-event: want NAME=FILE, the event's name and its payload's file, "+
			"e.g. issue_comment=testdata/sandbox/events/comment.json; got %q", v)
	case event.Sweeps(name):
		return fmt.Sprintf("-sandbox-event: a %s run sweeps the repository, as a sandbox run without -sandbox-event does", name)
	case !event.OnePR(name):
		msg := fmt.Sprintf("-sandbox-event: %s is no event stalepr evaluates one pull request on", name)
		if best := config.Nearest(name, event.OnePRNames()); best != "" {
			msg += "; did you mean " + best + "?"
		}
		return msg + " (" + strings.Join(event.OnePRNames(), ", ") + ")"
	}
	return ""
}

// readFlags parses the command line. A nil runner.IO means the run ends here
// with code: -help, -version, or a mistake, already reported.
func readFlags(args []string, getenv func(string) string, stdout, stderr io.Writer) (config.Source, *cliFlags, runner.IO, int) {
	fs, cli := newFlagSet()
	src, err := config.FromFlags(fs, args, getenv)
	out := runner.New(getenv, stdout, stderr, cli.summary, cli.summaryFile)
	switch {
	case errors.Is(err, flag.ErrHelp):
		config.Usage(stdout, "stalepr", fs)
		fmt.Fprint(stdout, runner.ExitCodesHelp)
		return src, cli, nil, ExitOK
	case err != nil:
		out.Fail("flags", err.Error()+nearestFlag(fs, err)+"; run stalepr -help to list the flags and inputs")
		return src, cli, nil, ExitUsage
	case cli.version:
		fmt.Fprintln(stdout, "stalepr", buildVersion())
		return src, cli, nil, ExitOK
	case cli.synthetic < 0 || cli.synthetic > sandbox.MaxSynthetic:
		out.Fail("flags", fmt.Sprintf("-sandbox-synthetic: want 0 to %d pull requests, got %d", sandbox.MaxSynthetic, cli.synthetic))
		return src, cli, nil, ExitUsage
	case cli.synthetic > 0 && cli.sandbox == "":
		out.Fail("flags", "-sandbox-synthetic adds pull requests to a sandbox: give -sandbox DIR too, e.g. -sandbox testdata/sandbox")
		return src, cli, nil, ExitUsage
	case cli.sandboxEvent != "" && cli.sandbox == "":
		out.Fail("flags", "-sandbox-event runs an event on a sandbox's sample: give -sandbox DIR too, e.g. -sandbox testdata/sandbox")
		return src, cli, nil, ExitUsage
	case cli.sandboxEvent != "" && sandboxEventFlag(cli.sandboxEvent) != "":
		out.Fail("flags", sandboxEventFlag(cli.sandboxEvent))
		return src, cli, nil, ExitUsage
	case cli.summary != runner.Text && cli.summary != runner.Markdown:
		out.Fail("flags", fmt.Sprintf("-summary: want text or markdown, got %q", cli.summary))
		return src, cli, nil, ExitUsage
	}
	return src, cli, out, ExitOK
}

// tokenFromShell words a missing token for a person at a terminal: the
// CLI has no repo-token flag, only GITHUB_TOKEN.
func tokenFromShell(explain func(name, msg string) string) func(name, msg string) string {
	return func(name, msg string) string {
		if name == config.InputRepoToken {
			return "no token: set " + report.TokenFromShell(config.EnvToken)
		}
		return explain(name, msg)
	}
}

// parseConfig parses the inputs once and reports every problem, each
// naming its input; explain adds what the message needs where it is read
// (the file or layer that set the value).
func parseConfig(out runner.IO, src config.Source, explain func(name, msg string) string) (config.Config, bool) {
	cfg, err := config.Parse(src)
	if err == nil {
		err = sweep.CheckBudget(cfg)
	}
	for _, w := range cfg.Warnings {
		out.Warn(w)
	}
	if err == nil {
		return cfg, true
	}
	var errs config.Errors
	if !errors.As(err, &errs) {
		out.Fail("", err.Error())
		return cfg, false
	}
	for _, e := range errs {
		out.Fail(e.Name, explain(e.Name, e.Error()))
	}
	return cfg, false
}

// nearestFlag suggests, for a flag the set does not define, the defined
// one nearest in spelling (-days-before-stal: did you mean
// -days-before-stale?); "" when none is near.
func nearestFlag(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	if name == config.InputRepoToken {
		return "; the CLI reads the token from " + report.TokenFromShell(config.EnvToken)
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if best := config.Nearest(name, names); best != "" {
		return "; did you mean -" + best + "?"
	}
	return ""
}

// clientFor is the one way a client is built: cfg's connection and limits,
// the run's deadline counted from start (by clock), and the build's User-Agent.
// workflow: the run is a GitHub Actions job (its errors' advice speaks of
// the workflow's permissions). logf, when set, hears the transport slow down.
func clientFor(cfg config.Config, clock ghapi.Clock, start time.Time, workflow bool, logf func(string, ...any)) (*ghapi.Client, error) {
	return ghapi.New(ghapi.Options{
		Token: string(cfg.Token), APIURL: cfg.APIURL, Owner: cfg.Owner, Repo: cfg.Repo,
		UserAgent: userAgent(),
		Clock:     clock,
		Workflow:  workflow,
		Limits: ghapi.Limits{
			DryRun: cfg.DebugOnly, MaxRequests: cfg.OperationsPerRun,
			Reserve: cfg.RateLimitReserve, WriteInterval: cfg.WriteInterval,
			Deadline: start.Add(cfg.RunTimeout),
			Logf:     logf,
		},
	})
}

// userAgent names this build to GitHub, as its API asks.
func userAgent() string { return "stalepr/" + buildVersion() }

// finish writes the outputs and the summary (extra: a paragraph main adds
// to it), then says how the run ended, in
// words true for the way it ended, and returns the exit code. The sweep's
// work is already in the log, so a file that cannot be written costs only
// itself.
func finish(out runner.IO, res sweep.Result, repo, extra string) int {
	outs := report.Outputs(res)
	outErr := out.Outputs(outs)
	sumErr := out.Summary(res, repo, report.TruncationNote(outs)+extra)

	code := ExitOK
	if !res.OK() {
		code = ExitFailed
	}
	switch {
	case res.Stopped == nil:
	case errors.Is(res.Stopped, context.Canceled):
		out.Fail("cancelled", report.Cancelled(res))
		code = ExitCancelled
	case res.ListingFailed():
		out.Fail("listing", report.ListingFailed(res))
	case res.WriteRefused() != nil:
		out.Fail("permission", report.WriteRefusedLine(res))
	default:
		out.Note(report.StoppedEarly(res))
	}
	if len(res.Failed()) > 0 && res.WriteRefused() == nil {
		out.Fail("", report.FailedLine(res.Failed()))
	}
	for _, err := range []error{outErr, sumErr} {
		if err != nil {
			out.Fail("outputs", report.OutputsFailed(err))
			code = max(code, ExitFailed)
		}
	}
	return code
}

// logger writes one line per PR acted on (in Actions, the runner fences them
// so that a PR title can never run a workflow command), worded for a dry run
// when dry is set.
type logger struct {
	w   io.Writer
	dry bool
}

func (l *logger) PR(it sweep.Item) {
	fmt.Fprintln(l.w, report.PRLine(it, l.dry))
}

func (l *logger) Printf(format string, args ...any) {
	fmt.Fprintln(l.w, strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
}

// realClock is the wall clock; Sleep returns early when ctx ends.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
